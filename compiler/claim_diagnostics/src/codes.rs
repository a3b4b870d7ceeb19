//! Every diagnostic code with its one-line title and its explanation (one
//! markdown file per code under `explanations/`), as `claimc explain CODE`
//! prints. A test checks that every code the compiler emits is listed here.

/// `(code, title, explanation)`.
pub const CODES: &[(&str, &str, &str)] = &[
    ("E0001", "source is not valid UTF-8", include_str!("../explanations/E0001.md")),
    ("E0002", "unexpected character", include_str!("../explanations/E0002.md")),
    ("E0003", "unterminated text literal", include_str!("../explanations/E0003.md")),
    ("E0004", "invalid escape or brace in text", include_str!("../explanations/E0004.md")),
    ("E0005", "malformed digest literal", include_str!("../explanations/E0005.md")),
    ("E0006", "literal out of range", include_str!("../explanations/E0006.md")),
    ("E0007", "unknown duration unit", include_str!("../explanations/E0007.md")),
    ("E0010", "syntax error", include_str!("../explanations/E0010.md")),
    ("E0011", "expected an item", include_str!("../explanations/E0011.md")),
    ("E0012", "nesting deeper than the limit", include_str!("../explanations/E0012.md")),
    ("E0013", "source file larger than the limit", include_str!("../explanations/E0013.md")),
    ("E0014", "more `.claim` files than the limit", include_str!("../explanations/E0014.md")),
    ("E0015", "too many syntax errors in one file", include_str!("../explanations/E0015.md")),
    ("E0016", "a `Claim.toml` Claim cannot read", include_str!("../explanations/E0016.md")),
    ("E0017", "an exemption that names nothing in the program", include_str!("../explanations/E0017.md")),
    ("E0101", "module not found", include_str!("../explanations/E0101.md")),
    ("E0102", "import cycle", include_str!("../explanations/E0102.md")),
    ("E0103", "name collision at `use`", include_str!("../explanations/E0103.md")),
    ("E0104", "name not found in module", include_str!("../explanations/E0104.md")),
    ("E0105", "item declared twice", include_str!("../explanations/E0105.md")),
    ("E0106", "module cannot be read", include_str!("../explanations/E0106.md")),
    ("E0201", "unknown name", include_str!("../explanations/E0201.md")),
    ("E0202", "unknown type", include_str!("../explanations/E0202.md")),
    ("E0203", "mismatched types", include_str!("../explanations/E0203.md")),
    ("E0204", "missing field in record literal", include_str!("../explanations/E0204.md")),
    ("E0205", "unknown field", include_str!("../explanations/E0205.md")),
    ("E0206", "field given twice", include_str!("../explanations/E0206.md")),
    ("E0207", "match is not exhaustive", include_str!("../explanations/E0207.md")),
    ("E0208", "type annotations needed", include_str!("../explanations/E0208.md")),
    ("E0209", "wrong number of arguments", include_str!("../explanations/E0209.md")),
    ("E0210", "not callable", include_str!("../explanations/E0210.md")),
    ("E0211", "operator does not apply", include_str!("../explanations/E0211.md")),
    ("E0212", "undeclared refusal code", include_str!("../explanations/E0212.md")),
    ("E0213", "refusal code declared twice", include_str!("../explanations/E0213.md")),
    ("E0214", "witness declared twice", include_str!("../explanations/E0214.md")),
    ("E0215", "recursion is not allowed", include_str!("../explanations/E0215.md")),
    ("E0216", "world function outside a fact", include_str!("../explanations/E0216.md")),
    ("E0217", "`is` pattern binds a name", include_str!("../explanations/E0217.md")),
    ("E0218", "pattern does not fit", include_str!("../explanations/E0218.md")),
    ("E0219", "wrong type arguments", include_str!("../explanations/E0219.md")),
    ("E0220", "name bound twice", include_str!("../explanations/E0220.md")),
    ("E0221", "frontier declared twice", include_str!("../explanations/E0221.md")),
    ("E0222", "function without a body", include_str!("../explanations/E0222.md")),
    ("E0223", "two fields read one JSON key", include_str!("../explanations/E0223.md")),
    ("E0224", "unknown JSON case", include_str!("../explanations/E0224.md")),
    ("E0301", "a fact refused", include_str!("../explanations/E0301.md")),
    ("E0302", "file cannot be read", include_str!("../explanations/E0302.md")),
    ("E0303", "path leaves the project root", include_str!("../explanations/E0303.md")),
    ("E0304", "absolute path", include_str!("../explanations/E0304.md")),
    ("E0305", "invalid JSON", include_str!("../explanations/E0305.md")),
    ("E0306", "JSON does not fit the type", include_str!("../explanations/E0306.md")),
    ("E0307", "file too large", include_str!("../explanations/E0307.md")),
    ("E0308", "not a directory", include_str!("../explanations/E0308.md")),
    ("E0309", "not a usable OCI image layout", include_str!("../explanations/E0309.md")),
    ("E0310", "OCI blob missing or does not match its digest", include_str!("../explanations/E0310.md")),
    ("E0311", "image layer is not the content its config names", include_str!("../explanations/E0311.md")),
    ("E0312", "image layer of an unsupported media type", include_str!("../explanations/E0312.md")),
    ("E0313", "image layer decompresses past the limit", include_str!("../explanations/E0313.md")),
    ("E0314", "a tree `git_tree` cannot reproduce", include_str!("../explanations/E0314.md")),
    ("E0315", "a git commit that cannot be read", include_str!("../explanations/E0315.md")),
    ("E0316", "not a public key Claim can verify with", include_str!("../explanations/E0316.md")),
    ("E0317", "a signed envelope that cannot be verified", include_str!("../explanations/E0317.md")),
    ("E0401", "holds on a false value", include_str!("../explanations/E0401.md")),
    ("E0402", "unexpected refusal", include_str!("../explanations/E0402.md")),
    ("E0403", "expected a refusal", include_str!("../explanations/E0403.md")),
    ("E0404", "refused with another code", include_str!("../explanations/E0404.md")),
    ("E0405", "dissolved frontier", include_str!("../explanations/E0405.md")),
    ("E0406", "witness exceeded its time limit", include_str!("../explanations/E0406.md")),
    ("E0407", "a value grew past the limit", include_str!("../explanations/E0407.md")),
    ("E0408", "fact exceeded its time limit", include_str!("../explanations/E0408.md")),
    ("E0901", "command-line error", include_str!("../explanations/E0901.md")),
    ("E0902", "no witness ran: nothing was verified", include_str!("../explanations/E0902.md")),
    ("E0999", "internal compiler error", include_str!("../explanations/E0999.md")),
    ("W0001", "name in the wrong case", include_str!("../explanations/W0001.md")),
    ("W0002", "result has no reader", include_str!("../explanations/W0002.md")),
    ("W0003", "refusal code never refused", include_str!("../explanations/W0003.md")),
    ("W0004", "witness proves nothing", include_str!("../explanations/W0004.md")),
    ("W0005", "frontier without `dissolves when`", include_str!("../explanations/W0005.md")),
    ("W0006", "binding digest no loaded receipt mentions", include_str!("../explanations/W0006.md")),
    ("W0007", "a fact leaf no witness notices", include_str!("../explanations/W0007.md")),
    ("W0008", "a refusal code no witness shows can fire", include_str!("../explanations/W0008.md")),
    ("W0009", "a `require` whose `else` no witness reaches", include_str!("../explanations/W0009.md")),
    ("W0010", "an exemption that exempts nothing unwitnessed", include_str!("../explanations/W0010.md")),
];

/// The explanation of a code, if it is one.
pub fn explain(code: &str) -> Option<&'static str> {
    let code = normalize(code);
    CODES.iter().find(|(c, _, _)| *c == code).map(|(_, _, text)| *text)
}

/// A code as a reader may type it, in its canonical form: `e203` and
/// `E203` are `E0203` (a letter, then the digits padded to four).
pub fn normalize(code: &str) -> String {
    let code = code.trim().to_ascii_uppercase();
    match code.split_at_checked(1) {
        Some((letter @ ("E" | "W"), digits))
            if (1..=4).contains(&digits.len()) && digits.bytes().all(|b| b.is_ascii_digit()) =>
        {
            format!("{letter}{digits:0>4}")
        }
        _ => code,
    }
}

/// Every code with its title, one per line: what `claimc explain` prints
/// without a code.
pub fn list() -> String {
    CODES.iter().map(|(code, title, _)| format!("{code}  {title}\n")).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_code_is_found_however_it_is_typed() {
        for typed in ["E0203", "e0203", "E203", "e203", " E0203 "] {
            assert_eq!(normalize(typed), "E0203", "{typed:?}");
            assert!(explain(typed).is_some(), "{typed:?}");
        }
        assert_eq!(normalize("203"), "203", "a number alone is an E or a W code: not guessed");
        assert!(explain("E20300").is_none());
        assert!(list().lines().any(|l| l.starts_with("E0203  ")));
        assert_eq!(list().lines().count(), CODES.len());
    }

    #[test]
    fn codes_are_unique_and_explained() {
        let mut seen = std::collections::BTreeSet::new();
        for (code, title, text) in CODES {
            assert!(seen.insert(*code), "{code} listed twice");
            assert!(text.starts_with(&format!("# {code}: {title}")), "{code} explanation heading");
            assert!(text.len() > 60, "{code} explanation is too thin");
        }
    }
}
