//! Which witnesses a run selects: `--filter` and `--shard`.

use claim_diagnostics::{did_you_mean, Diagnostic};
use claim_sema::{hir, Compiled};

/// The witnesses a run selects from one program: those of its entry
/// modules (`entries`, module paths in entry order), in declaration order,
/// whose name contains `filter` and that fall in `shard`.
pub fn selected<'c>(
    compiled: &'c Compiled,
    entries: &[String],
    filter: Option<&str>,
    shard: Option<(u64, u64)>,
) -> Vec<&'c hir::Witness> {
    entries
        .iter()
        .filter_map(|m| compiled.modules.get(m))
        .flat_map(|m| m.witnesses.iter())
        .filter(|w| filter.is_none_or(|f| w.name.contains(f)))
        .filter(|w| shard.is_none_or(|(k, n)| in_shard(&w.name, k, n)))
        .collect()
}

/// Whether a witness belongs to shard `k` of `n`: by a stable hash of its
/// name (FNV-1a), so shards do not move when witnesses are added elsewhere.
pub fn in_shard(name: &str, k: u64, n: u64) -> bool {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in name.bytes() {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    n == 0 || h % n == k.saturating_sub(1)
}

/// The error of a `--filter` that no witness name contains, or `None`.
///
/// A filter that selects nothing would report `0/0 PASS` and exit 0: a
/// typo in a CI job's filter would pass it without running anything. (A
/// shard with no witnesses is not an error: a small program split many
/// ways has empty shards.)
pub fn filter_matches_nothing<'n>(filter: &str, names: impl Iterator<Item = &'n str> + Clone) -> Option<Diagnostic> {
    let total = names.clone().count();
    if names.clone().any(|n| n.contains(filter)) {
        return None;
    }
    let mut d = Diagnostic::error("E0901", format!("`--filter {filter}` matches no witness"))
        .with_note(format!("the entries hold {total} witness{}", if total == 1 { "" } else { "es" }));
    // The closest word of a witness name (`produced` for `prodcued`), or
    // else the closest piece of one about as long as the filter (one
    // character more or less, for a letter dropped or doubled).
    let words = names.clone().flat_map(|n| n.split('_')).chain(names.clone());
    let width = filter.chars().count();
    let mut pieces: Vec<String> = Vec::new();
    // Pieces of the first names only: this runs on an error path, but a
    // corpus of tens of thousands of witnesses should not make it slow.
    for n in names.take(2_000) {
        let chars: Vec<char> = n.chars().collect();
        for w in [width.saturating_sub(1), width, width + 1].into_iter().filter(|w| *w > 0 && *w <= chars.len()) {
            pieces.extend(chars.windows(w).map(|p| p.iter().collect::<String>()));
        }
    }
    d = match did_you_mean(filter, words).or_else(|| did_you_mean(filter, pieces.iter().map(String::as_str))) {
        Some(near) => d.with_help(format!("did you mean `--filter {near}`?")),
        None => {
            d.with_help("the filter keeps the witnesses whose name contains it; `claim_batch --list` prints every name")
        }
    };
    Some(d)
}

#[cfg(test)]
mod tests {
    use super::*;

    const NAMES: [&str; 2] = ["the_build_is_produced", "an_adopted_image_is_not_produced"];

    #[test]
    fn a_filter_some_name_contains_is_not_an_error() {
        assert!(filter_matches_nothing("adopted", NAMES.into_iter()).is_none());
    }

    #[test]
    fn a_misspelt_filter_suggests_the_piece_it_meant() {
        let d = filter_matches_nothing("prodcued", NAMES.into_iter()).expect("an error");
        assert_eq!(d.message, "`--filter prodcued` matches no witness");
        assert_eq!(d.help.as_deref(), Some("did you mean `--filter produced`?"));
        assert_eq!(d.notes, ["the entries hold 2 witnesses"]);
    }

    #[test]
    fn a_dropped_letter_is_found_too() {
        let d = filter_matches_nothing("adoped", NAMES.into_iter()).expect("an error");
        assert_eq!(d.help.as_deref(), Some("did you mean `--filter adopted`?"));
    }

    #[test]
    fn a_piece_across_words_is_found_where_no_word_is() {
        let d = filter_matches_nothing("build_si_produced", NAMES.into_iter()).expect("an error");
        assert_eq!(d.help.as_deref(), Some("did you mean `--filter build_is_produced`?"));
    }

    #[test]
    fn no_witness_at_all() {
        let d = filter_matches_nothing("x", std::iter::empty()).expect("an error");
        assert_eq!(d.notes, ["the entries hold 0 witnesses"]);
    }
}
