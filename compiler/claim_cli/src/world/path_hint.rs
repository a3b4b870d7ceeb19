//! "Did you mean" for a path that names nothing: the first part of it
//! that does not exist, replaced by the closest name its folder holds.

use claim_diagnostics::did_you_mean;
use std::path::Path;

/// `written` as the program wrote it, `full` where it resolved to, and
/// `names_in` the names a folder holds (`None` where it does not exist).
/// The suggestion is `written` with its first missing part replaced, where
/// that part is close to a name beside it and appears in `written` once.
pub(crate) fn did_you_mean_path(
    written: &str,
    full: &Path,
    names_in: impl Fn(&Path) -> Option<Vec<String>>,
) -> Option<String> {
    let mut at = full;
    loop {
        let parent = at.parent()?;
        let missing = at.file_name()?.to_str()?;
        if let Some(names) = names_in(parent) {
            let close = did_you_mean(missing, names.iter().map(String::as_str))?;
            let parts: Vec<&str> = written.split('/').collect();
            if parts.iter().filter(|p| **p == missing).count() != 1 {
                return None;
            }
            let fixed: Vec<&str> = parts.iter().map(|p| if *p == missing { close.as_str() } else { p }).collect();
            return Some(fixed.join("/"));
        }
        at = parent;
    }
}

#[cfg(test)]
mod tests {
    use super::did_you_mean_path;
    use std::path::Path;

    /// A root holding `receipts/build.json` and `source/`.
    fn names_in(dir: &Path) -> Option<Vec<String>> {
        match dir.to_str()? {
            "/p" => Some(vec!["receipts".into(), "source".into()]),
            "/p/receipts" => Some(vec!["build.json".into(), "candidate.json".into()]),
            _ => None,
        }
    }

    #[test]
    fn the_first_missing_part_is_replaced_by_the_closest_name() {
        let hint = |w: &str, full: &str| did_you_mean_path(w, Path::new(full), names_in);
        assert_eq!(hint("receipts/buld.json", "/p/receipts/buld.json").as_deref(), Some("receipts/build.json"));
        assert_eq!(hint("receipt/build.json", "/p/receipt/build.json").as_deref(), Some("receipts/build.json"));
        assert_eq!(hint("./receipts/buld.json", "/p/receipts/buld.json").as_deref(), Some("./receipts/build.json"));
        // Nothing close: no suggestion.
        assert_eq!(hint("receipts/zzzzzzzzz.json", "/p/receipts/zzzzzzzzz.json"), None);
        // The missing part written twice: which one to replace is unclear.
        assert_eq!(hint("buld.json/../receipts/buld.json", "/p/receipts/buld.json"), None);
    }
}
