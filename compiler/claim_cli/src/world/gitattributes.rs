//! What `.gitattributes` files make `git add` do to a file's content, so
//! that `git_tree` gives the tree id git gives: line endings normalised
//! (`text`, `eol`, `text=auto`, the older `crlf`), as git's `convert.c` does
//! with no configuration (`core.autocrlf` unset). What Claim does not
//! reproduce is refused by name, never hashed as if it were not there:
//! `filter`, `ident`, `working-tree-encoding`, macro definitions.
//!
//! Attribute files are read from each folder of the tree; a rule of a
//! deeper file wins over one of a shallower, a later rule over an earlier
//! one in the same file, attribute by attribute, as git resolves them.

/// One attribute's state on a rule.
#[derive(Clone, Debug, PartialEq, Eq)]
enum State {
    Set,
    Unset,
    Value(String),
    /// `!attr`: as if no rule named it (a shallower rule may still).
    Unspecified,
}

#[derive(Clone, Debug)]
struct Rule {
    /// The pattern, without a leading `/`.
    pattern: Vec<u8>,
    /// Whether it is matched against the whole path below its file's
    /// folder (it had a `/`), or against the last component.
    anchored: bool,
    attrs: Vec<(String, State)>,
}

/// The attribute files of a tree, by the folder (relative to the tree,
/// `""` for its top, else ending in `/`) each is in.
#[derive(Clone, Debug, Default)]
pub struct Attributes {
    files: Vec<(Vec<u8>, Vec<Rule>)>,
}

/// How `git add` stores a file's content.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Conversion {
    /// As it is.
    None,
    /// CRLF becomes LF (`text`, `eol=…`).
    Text,
    /// CRLF becomes LF where git's heuristics call the file text
    /// (`text=auto`).
    Auto,
}

/// Attributes that change what `git add` stores, which Claim does not
/// reproduce.
const REFUSED: [&str; 3] = ["filter", "ident", "working-tree-encoding"];

impl Attributes {
    /// Adds the `.gitattributes` of folder `dir` (relative to the tree).
    pub fn add(&mut self, dir: &[u8], text: &[u8]) -> Result<(), String> {
        let mut rules = Vec::new();
        for line in text.split(|&b| b == b'\n') {
            let line = line.strip_suffix(b"\r").unwrap_or(line);
            let line = trim(line);
            if line.is_empty() || line.starts_with(b"#") {
                continue;
            }
            if line.starts_with(b"[attr]") {
                return Err("it defines a macro (`[attr]…`), which `git_tree` does not reproduce".into());
            }
            if line.starts_with(b"\"") {
                return Err("it has a quoted pattern, which `git_tree` does not reproduce".into());
            }
            let mut words = line.split(|b| b.is_ascii_whitespace()).filter(|w| !w.is_empty());
            let Some(pattern) = words.next() else { continue };
            // A negative pattern is ignored by git in attribute files.
            if pattern.starts_with(b"!") {
                continue;
            }
            let mut attrs = Vec::new();
            for w in words {
                let w = String::from_utf8_lossy(w).into_owned();
                let (name, state) = if let Some(n) = w.strip_prefix('-') {
                    (n.to_string(), State::Unset)
                } else if let Some(n) = w.strip_prefix('!') {
                    (n.to_string(), State::Unspecified)
                } else if let Some((n, v)) = w.split_once('=') {
                    (n.to_string(), State::Value(v.to_string()))
                } else {
                    (w.clone(), State::Set)
                };
                if name == "binary" && state == State::Set {
                    // The one built-in macro: `-diff -merge -text`.
                    attrs.push(("text".to_string(), State::Unset));
                    continue;
                }
                attrs.push((name, state));
            }
            let anchored = pattern[..pattern.len().saturating_sub(1)].contains(&b'/');
            let pattern = pattern.strip_prefix(b"/").unwrap_or(pattern).to_vec();
            rules.push(Rule { pattern, anchored, attrs });
        }
        self.files.push((dir.to_vec(), rules));
        // Deeper folders first when resolving: a longer prefix is deeper.
        self.files.sort_by_key(|f| std::cmp::Reverse(f.0.len()));
        Ok(())
    }

    /// The state of `attr` for the file at `path` (relative to the tree).
    fn state(&self, path: &[u8], attr: &str) -> Option<&State> {
        for (dir, rules) in &self.files {
            let Some(rest) = path.strip_prefix(dir.as_slice()) else { continue };
            let base = rest.rsplit(|&b| b == b'/').next().unwrap_or(rest);
            for rule in rules.iter().rev() {
                let Some((_, state)) = rule.attrs.iter().rev().find(|(n, _)| n == attr) else { continue };
                // A pattern ending in `/` names folders; attributes are of files.
                if rule.pattern.ends_with(b"/") {
                    continue;
                }
                let hit = if rule.anchored { wildmatch(&rule.pattern, rest) } else { wildmatch(&rule.pattern, base) };
                if hit {
                    if *state == State::Unspecified {
                        return None;
                    }
                    return Some(state);
                }
            }
        }
        None
    }

    /// How `git add` stores the file at `path`, or why Claim cannot say.
    pub fn conversion(&self, path: &[u8]) -> Result<Conversion, String> {
        for attr in REFUSED {
            match self.state(path, attr) {
                None | Some(State::Unset) => {}
                Some(_) => {
                    return Err(format!("`.gitattributes` gives it `{attr}`, which `git_tree` does not reproduce"))
                }
            }
        }
        let text = self.state(path, "text");
        let eol = self.state(path, "eol");
        Ok(match (text, eol, self.state(path, "crlf")) {
            (Some(State::Unset), _, _) => Conversion::None,
            (Some(State::Set), _, _) => Conversion::Text,
            (Some(State::Value(v)), _, _) if v == "auto" => Conversion::Auto,
            (Some(State::Value(_)), _, _) => Conversion::None,
            (_, Some(State::Value(v)), _) if v == "lf" || v == "crlf" => Conversion::Text,
            (_, _, Some(State::Unset)) => Conversion::None,
            (_, _, Some(State::Set | State::Value(_))) => Conversion::Text,
            _ => Conversion::None,
        })
    }
}

fn trim(s: &[u8]) -> &[u8] {
    let start = s.iter().position(|b| !b.is_ascii_whitespace()).unwrap_or(s.len());
    let end = s.iter().rposition(|b| !b.is_ascii_whitespace()).map_or(start, |e| e + 1);
    &s[start..end]
}

/// Git's `wildmatch` with `WM_PATHNAME`: `*` and `?` stop at `/`, `**`
/// between slashes (or at either end) crosses them, `[…]` is a class
/// (`!` or `^` negates it), `\` quotes the next character.
pub fn wildmatch(p: &[u8], t: &[u8]) -> bool {
    match p.first() {
        None => t.is_empty(),
        Some(b'*') if p.starts_with(b"**") => {
            let rest = &p[2..];
            if let Some(after) = rest.strip_prefix(b"/") {
                // `**/x`: `x` here, or after any `/`.
                wildmatch(after, t) || (0..t.len()).any(|i| t[i] == b'/' && wildmatch(after, &t[i + 1..]))
            } else {
                (0..=t.len()).any(|i| wildmatch(rest, &t[i..]))
            }
        }
        Some(b'*') => {
            let rest = &p[1..];
            for i in 0..=t.len() {
                if wildmatch(rest, &t[i..]) {
                    return true;
                }
                if t.get(i) == Some(&b'/') {
                    return false;
                }
            }
            false
        }
        Some(b'?') => t.first().is_some_and(|&c| c != b'/') && wildmatch(&p[1..], &t[1..]),
        Some(b'[') => {
            let Some((&c, t_rest)) = t.split_first() else { return false };
            let mut i = 1;
            let negate = matches!(p.get(i), Some(b'!' | b'^'));
            if negate {
                i += 1;
            }
            let mut matched = false;
            let mut first = true;
            while let Some(&pc) = p.get(i) {
                if pc == b']' && !first {
                    break;
                }
                first = false;
                if p.get(i + 1) == Some(&b'-') && p.get(i + 2).is_some_and(|&e| e != b']') {
                    let hi = p[i + 2];
                    matched |= pc <= c && c <= hi;
                    i += 3;
                } else {
                    matched |= pc == c;
                    i += 1;
                }
            }
            // An unclosed class matches nothing.
            if p.get(i) != Some(&b']') {
                return false;
            }
            c != b'/' && matched != negate && wildmatch(&p[i + 1..], t_rest)
        }
        Some(b'\\') if p.len() > 1 => t.first() == Some(&p[1]) && wildmatch(&p[2..], &t[1..]),
        Some(&c) => t.first() == Some(&c) && wildmatch(&p[1..], &t[1..]),
    }
}

/// `content` as `git add` stores it under `conversion`.
pub fn convert(content: Vec<u8>, conversion: Conversion) -> Vec<u8> {
    let stats = Stats::of(&content);
    let convert = match conversion {
        Conversion::None => false,
        Conversion::Text => stats.crlf > 0,
        Conversion::Auto => stats.crlf > 0 && !stats.is_binary(),
    };
    if !convert {
        return content;
    }
    let mut out = Vec::with_capacity(content.len());
    let mut i = 0;
    while i < content.len() {
        if content[i] == b'\r' && content.get(i + 1) == Some(&b'\n') {
            i += 1;
            continue;
        }
        out.push(content[i]);
        i += 1;
    }
    out
}

/// Git's `gather_stats` over a whole file.
#[derive(Default)]
struct Stats {
    lonecr: usize,
    crlf: usize,
    nul: usize,
    printable: usize,
    nonprintable: usize,
}

impl Stats {
    fn of(buf: &[u8]) -> Stats {
        let mut s = Stats::default();
        let mut i = 0;
        while i < buf.len() {
            let c = buf[i];
            if c == b'\r' {
                if buf.get(i + 1) == Some(&b'\n') {
                    s.crlf += 1;
                    i += 1;
                } else {
                    s.lonecr += 1;
                }
            } else if c == b'\n' {
            } else if c == 127 {
                s.nonprintable += 1;
            } else if c < 32 {
                match c {
                    // BS, HT, ESC and FF are printable to git.
                    8 | 9 | 27 | 12 => s.printable += 1,
                    0 => {
                        s.nul += 1;
                        s.nonprintable += 1;
                    }
                    _ => s.nonprintable += 1,
                }
            } else {
                s.printable += 1;
            }
            i += 1;
        }
        // A DOS end-of-file character at the end is not counted.
        if buf.last() == Some(&0x1a) {
            s.nonprintable = s.nonprintable.saturating_sub(1);
        }
        s
    }

    /// Git's `convert_is_binary`.
    fn is_binary(&self) -> bool {
        self.lonecr > 0 || self.nul > 0 || (self.printable >> 7) < self.nonprintable
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wildmatch_as_git_matches_paths() {
        for (p, t, want) in [
            ("*.txt", "a.txt", true),
            ("*.txt", "d/a.txt", false),
            ("d/*.txt", "d/a.txt", true),
            ("**/a.txt", "a.txt", true),
            ("**/a.txt", "x/y/a.txt", true),
            ("d/**", "d/x/y", true),
            ("d/**/z", "d/z", true),
            ("d/**/z", "d/x/y/z", true),
            ("[ab].c", "b.c", true),
            ("[!ab].c", "b.c", false),
            ("?.c", "/.c", false),
        ] {
            assert_eq!(wildmatch(p.as_bytes(), t.as_bytes()), want, "{p} {t}");
        }
    }

    #[test]
    fn crlf_is_normalised_as_git_would() {
        assert_eq!(convert(b"a\r\nb\r\n".to_vec(), Conversion::Text), b"a\nb\n");
        assert_eq!(convert(b"a\r\nb\rc".to_vec(), Conversion::Text), b"a\nb\rc", "a lone CR stays");
        assert_eq!(convert(b"a\r\nb\rc".to_vec(), Conversion::Auto), b"a\r\nb\rc", "auto: a lone CR is binary");
        assert_eq!(convert(b"a\r\n\0".to_vec(), Conversion::Auto), b"a\r\n\0", "auto: a NUL is binary");
        assert_eq!(convert(b"a\r\n".to_vec(), Conversion::None), b"a\r\n");
    }

    #[test]
    fn rules_resolve_deepest_then_last() {
        let mut a = Attributes::default();
        a.add(b"", b"* text=auto\n*.bin -text\n").expect("top");
        a.add(b"sub/", b"*.bin text\n").expect("sub");
        assert_eq!(a.conversion(b"x.txt"), Ok(Conversion::Auto));
        assert_eq!(a.conversion(b"x.bin"), Ok(Conversion::None));
        assert_eq!(a.conversion(b"sub/x.bin"), Ok(Conversion::Text));
        a.add(b"f/", b"*.c filter=lfs\n").expect("f");
        assert!(a.conversion(b"f/x.c").is_err());
        assert!(Attributes::default().add(b"", b"[attr]mine text\n").is_err());
    }
}
