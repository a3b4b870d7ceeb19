//! The human renderer never panics, names each diagnostic's primary place
//! in its first header as every other output does, prints an amount of
//! text that grows with the labels, not with the files, and (without
//! colour) no control or direction character but line feeds: arbitrary texts
//! (made long by repetition, with any line breaks and characters) and
//! labels anywhere in them, in one file or two.
#![no_main]
use claim_diagnostics::{render_human, Diagnostic, Sources};
use claim_syntax::{Loc, Span};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let [labels, repeat, flags, rest @ ..] = data else { return };
    let labels = 1 + usize::from(*labels % 5);
    if rest.len() < labels * 5 {
        return;
    }
    let (specs, text) = rest.split_at(labels * 5);
    let (a, b) = text.split_at(text.len() / 2);
    let mut sources = Sources::new();
    let main = sources.add("main.claim", String::from_utf8_lossy(a).into_owned());
    // Repeated, the second file's lines run long.
    let json = sources.add("r.json", String::from_utf8_lossy(b).repeat(1 + usize::from(*repeat % 64)));
    let loc = |spec: &[u8]| {
        let file = if spec[0] % 2 == 0 { main } else { json };
        let len = sources.text(file).len();
        let start = usize::from(u16::from_le_bytes([spec[1], spec[2]])) * (1 + len / 65536);
        let end = start + usize::from(u16::from_le_bytes([spec[3], spec[4]]) % 2048);
        // Spans past the end or inside a character are the renderer's to
        // keep in bounds.
        Loc::new(file, Span::new(start % (len + 2), end % (len + 2)))
    };
    let mut specs = specs.chunks_exact(5);
    let Some(first) = specs.next() else { return };
    // Messages carry a piece of the texts, as a refusal's carries values.
    let piece = |i: usize| String::from_utf8_lossy(&text[i.min(text.len())..(i + 24).min(text.len())]).into_owned();
    let mut d = Diagnostic::error("E0401", format!("`holds` is false: {}", piece(0))).at_loc(loc(first), "here");
    for (i, spec) in specs.enumerate() {
        d = d.with_secondary(loc(spec), format!("label {i}: {}", piece(24 * i)));
    }
    if flags & 2 != 0 {
        d = d.with_note("a note").with_help("some help");
    }
    let color = flags & 1 != 0;
    let out = render_human(&d, &sources, color);
    // Visible text: ariadne colours each character apart (~20 bytes of
    // escapes a character), so the bound is on what is left without them.
    let mut visible = 0;
    let mut chars = out.chars();
    while let Some(c) = chars.next() {
        if c == '\u{1b}' {
            chars.by_ref().find(char::is_ascii_alphabetic);
        } else {
            visible += c.len_utf8();
        }
    }
    assert!(visible < 64 * 1024, "{visible} bytes for {labels} labels");
    // Without colour, nothing in the output acts on a terminal.
    if !color {
        let hidden = out.chars().find(|&c| claim_diagnostics::printable::hidden(c) && c != '\n');
        assert!(hidden.is_none(), "{hidden:?} in\n{out}");
    }
    if let Some(primary) = &d.primary {
        let text = sources.text(primary.loc.file);
        let mut at = (primary.loc.span.start as usize).min(text.len());
        while !text.is_char_boundary(at) {
            at -= 1;
        }
        let (line, col) = sources.line_col(primary.loc.file, at as u32);
        let place = format!(" {}:{line}:{col} ", sources.name(primary.loc.file));
        // The first group's header is the line after the message.
        assert!(out.lines().nth(1).is_some_and(|l| l.contains(&place)), "{place} not in\n{out}");
    }
});
