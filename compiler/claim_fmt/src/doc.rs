//! A small Wadler-style document algebra and its renderer: a group is laid
//! out flat when it fits in the remaining width, otherwise its lines break.
//! A hard line (or a comment) inside a group forces it, and every group
//! around it, to break.

use std::rc::Rc;

#[derive(Clone, Debug)]
pub enum Doc {
    Nil,
    Text(Rc<str>),
    /// A space when flat, a newline when broken.
    Line,
    /// Nothing when flat, a newline when broken.
    SoftLine,
    /// Always a newline.
    HardLine,
    /// A newline with no indentation after it: the blank line kept between
    /// two items.
    BlankLine,
    /// The first when the enclosing group is broken, the second when flat.
    IfBreak(Rc<str>, Rc<str>),
    Concat(Vec<Doc>, bool),
    Indent(Box<Doc>, bool),
    Group(Box<Doc>, bool),
}

impl Doc {
    pub fn text(s: impl Into<Rc<str>>) -> Doc {
        Doc::Text(s.into())
    }
    /// Whether the document holds a hard line, and so can never be flat.
    pub fn hard(&self) -> bool {
        match self {
            Doc::HardLine | Doc::BlankLine => true,
            Doc::Concat(_, h) | Doc::Indent(_, h) | Doc::Group(_, h) => *h,
            Doc::Text(t) => t.contains('\n'),
            Doc::Nil | Doc::Line | Doc::SoftLine | Doc::IfBreak(..) => false,
        }
    }
    pub fn concat(parts: Vec<Doc>) -> Doc {
        let h = parts.iter().any(Doc::hard);
        Doc::Concat(parts, h)
    }
    pub fn indent(d: Doc) -> Doc {
        let h = d.hard();
        Doc::Indent(Box::new(d), h)
    }
    pub fn group(d: Doc) -> Doc {
        let h = d.hard();
        Doc::Group(Box::new(d), h)
    }
}

/// Builds a `Doc::concat` from a list of parts.
#[macro_export]
macro_rules! cat {
    ($($d:expr),* $(,)?) => { $crate::doc::Doc::concat(vec![$($d.into()),*]) };
}

impl From<&str> for Doc {
    fn from(s: &str) -> Doc {
        Doc::text(s)
    }
}
impl From<String> for Doc {
    fn from(s: String) -> Doc {
        Doc::text(s)
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Mode {
    Flat,
    Break,
}

/// Lays the document out in `width` columns, indenting by `indent` spaces.
pub fn render(doc: &Doc, width: usize, indent: usize) -> String {
    let mut out = String::new();
    let mut col = 0usize;
    let mut stack: Vec<(usize, Mode, &Doc)> = vec![(0, Mode::Break, doc)];
    while let Some((ind, mode, d)) = stack.pop() {
        match d {
            Doc::Nil => {}
            Doc::Text(t) => {
                out.push_str(t);
                col = match t.rfind('\n') {
                    Some(i) => t.len() - i - 1,
                    None => col + t.chars().count(),
                };
            }
            Doc::Line | Doc::SoftLine if mode == Mode::Flat => {
                if matches!(d, Doc::Line) {
                    out.push(' ');
                    col += 1;
                }
            }
            Doc::Line | Doc::SoftLine | Doc::HardLine => newline(&mut out, &mut col, ind),
            Doc::BlankLine => {
                trim_trailing(&mut out);
                out.push('\n');
                newline(&mut out, &mut col, ind);
            }
            Doc::IfBreak(broken, flat) => {
                let t = if mode == Mode::Break { broken } else { flat };
                out.push_str(t);
                col += t.chars().count();
            }
            Doc::Concat(parts, _) => stack.extend(parts.iter().rev().map(|p| (ind, mode, p))),
            Doc::Indent(inner, _) => stack.push((ind + indent, mode, inner)),
            Doc::Group(inner, hard) => {
                let flat = mode == Mode::Flat || (!hard && fits(inner, width.saturating_sub(col), &stack));
                stack.push((ind, if flat { Mode::Flat } else { Mode::Break }, inner));
            }
        }
    }
    trim_trailing(&mut out);
    out.push('\n');
    out
}

fn newline(out: &mut String, col: &mut usize, ind: usize) {
    trim_trailing(out);
    out.push('\n');
    out.extend(std::iter::repeat_n(' ', ind));
    *col = ind;
}

fn trim_trailing(out: &mut String) {
    let keep = out.trim_end_matches([' ', '\t']).len();
    out.truncate(keep);
}

/// Whether `doc`, laid out flat, and what follows it up to the next line
/// break fit in `room` columns.
fn fits(doc: &Doc, room: usize, rest: &[(usize, Mode, &Doc)]) -> bool {
    let mut room = room as isize;
    let mut work: Vec<(Mode, &Doc)> = vec![(Mode::Flat, doc)];
    let mut rest = rest.iter().rev();
    let mut in_rest = false;
    loop {
        let Some((mode, d)) = work.pop() else {
            // The group fits; what follows on the same line must fit too.
            match rest.next() {
                Some((_, m, d)) => {
                    in_rest = true;
                    work.push((*m, d));
                    continue;
                }
                None => return true,
            }
        };
        match d {
            Doc::Nil => {}
            // A text literal cannot break: a long one after this group
            // overflows its line whatever the group does, so it must not
            // make the group break.
            Doc::Text(t) if in_rest && t.starts_with('"') => return true,
            Doc::Text(t) => {
                if t.contains('\n') {
                    return true;
                }
                room -= t.chars().count() as isize;
            }
            Doc::Line | Doc::SoftLine => {
                if mode == Mode::Break {
                    return true;
                }
                if matches!(d, Doc::Line) {
                    room -= 1;
                }
            }
            Doc::HardLine | Doc::BlankLine => return mode == Mode::Break,
            Doc::IfBreak(broken, flat) => {
                room -= if mode == Mode::Break { broken } else { flat }.chars().count() as isize;
            }
            Doc::Concat(parts, _) => work.extend(parts.iter().rev().map(|p| (mode, p))),
            Doc::Indent(inner, _) => work.push((mode, inner)),
            // A group after this one is measured as it will be laid out:
            // flat if it can be, which is what `mode` already says for ours.
            Doc::Group(inner, hard) => work.push((if *hard { Mode::Break } else { mode }, inner)),
        }
        if room < 0 {
            return false;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn list(items: &[&str]) -> Doc {
        let mut parts = vec![Doc::text("["), Doc::SoftLine];
        for (i, it) in items.iter().enumerate() {
            if i > 0 {
                parts.push(",".into());
                parts.push(Doc::Line);
            }
            parts.push((*it).into());
        }
        parts.push(Doc::IfBreak(",".into(), "".into()));
        let inner = Doc::indent(Doc::concat(parts));
        Doc::group(cat![inner, Doc::SoftLine, "]"])
    }

    #[test]
    fn a_group_that_fits_stays_flat() {
        assert_eq!(render(&list(&["a", "b"]), 20, 2), "[a, b]\n");
    }

    #[test]
    fn a_group_too_wide_breaks_one_element_per_line_with_a_trailing_comma() {
        assert_eq!(render(&list(&["alpha", "beta", "gamma"]), 10, 2), "[\n  alpha,\n  beta,\n  gamma,\n]\n");
    }

    #[test]
    fn a_hard_line_breaks_every_enclosing_group() {
        let d = Doc::group(cat!["{", Doc::indent(cat![Doc::Line, "a", Doc::HardLine, "b"]), Doc::Line, "}"]);
        assert_eq!(render(&d, 100, 2), "{\n  a\n  b\n}\n");
    }
}
