//! `Claim.toml`, the project's manifest: it marks the project root, and
//! holds the project's settings. Its one table today is `[mutate.exempt]`:
//! the facts, leaves and refusal codes `--mutate` does not ask a witness to
//! notice, each with the reason a reviewer reads. Anything else in it is an
//! error (`E0016`): a setting the tool does not know is never ignored.

use claim_diagnostics::Diagnostic;
use claim_syntax::{FileId, Loc, Span};
use toml::de::{DeTable, DeValue};
use toml::Spanned;

/// What a project's `Claim.toml` says.
#[derive(Clone, Debug, Default)]
pub struct Manifest {
    pub exempt: Vec<Exemption>,
}

/// One entry of `[mutate.exempt]`: `name = "reason"`. The name is a fact
/// (`receipt`), one leaf of a fact or the leaves under it (`receipt $.tag`),
/// or a refusal code (`NotBuilt`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Exemption {
    pub name: String,
    pub reason: String,
    /// The key in `Claim.toml`.
    pub loc: Loc,
}

impl Exemption {
    /// The fact and the leaf path (`$` for the whole fact) the name means.
    pub fn fact_and_path(&self) -> (&str, &str) {
        match self.name.split_once(' ') {
            Some((fact, path)) => (fact, path.trim()),
            None => (&self.name, "$"),
        }
    }
}

fn error(file: FileId, span: std::ops::Range<usize>, message: String, label: &str) -> Diagnostic {
    Diagnostic::error("E0016", message).at(file, Span::from(span), label.to_string())
}

/// The keys a table may hold; any other is `E0016`, with a "did you mean".
fn only<'t, 'i>(
    table: &'t DeTable<'i>,
    allowed: &[&str],
    at: &str,
    file: FileId,
) -> Result<Vec<(&'t Spanned<toml::de::DeString<'i>>, &'t Spanned<DeValue<'i>>)>, Box<Diagnostic>> {
    let mut out = Vec::new();
    for (k, v) in table.iter() {
        if !allowed.contains(&&**k.get_ref()) {
            let mut d =
                error(file, k.span(), format!("unknown key `{}` in {at}", k.get_ref()), "not a setting Claim knows")
                    .with_note(format!("{at} holds {}", claim_diagnostics::and_list(allowed)));
            if let Some(near) = claim_diagnostics::did_you_mean(k.get_ref(), allowed.iter().copied()) {
                d = d.with_help(format!("did you mean `{near}`?"));
            }
            return Err(Box::new(d));
        }
        out.push((k, v));
    }
    Ok(out)
}

fn table<'t, 'i>(v: &'t Spanned<DeValue<'i>>, what: &str, file: FileId) -> Result<&'t DeTable<'i>, Box<Diagnostic>> {
    match v.get_ref() {
        DeValue::Table(t) => Ok(t),
        _ => Err(Box::new(error(file, v.span(), format!("{what} must be a table"), "not a table"))),
    }
}

/// Reads a `Claim.toml`'s text (file `file` of the sources).
pub fn parse(text: &str, file: FileId) -> Result<Manifest, Box<Diagnostic>> {
    let root = DeTable::parse(text).map_err(|e| {
        let span = e.span().unwrap_or(0..0);
        Box::new(error(file, span, format!("`Claim.toml` is not TOML: {}", e.message().trim_end_matches('.')), "here"))
    })?;
    let mut manifest = Manifest::default();
    for (_, mutate) in only(root.get_ref(), &["mutate"], "`Claim.toml`", file)? {
        let mutate = table(mutate, "`[mutate]`", file)?;
        for (_, exempt) in only(mutate, &["exempt"], "`[mutate]`", file)? {
            let exempt = table(exempt, "`[mutate.exempt]`", file)?;
            for (k, v) in exempt.iter() {
                let reason = match v.get_ref() {
                    DeValue::String(s) if !s.trim().is_empty() => s.trim().to_string(),
                    DeValue::String(_) => {
                        return Err(Box::new(
                            error(
                                file,
                                v.span(),
                                format!("the exemption of `{}` gives no reason", k.get_ref()),
                                "empty",
                            )
                            .with_help("say why no witness needs to notice it: a reviewer reads the reason"),
                        ))
                    }
                    _ => {
                        return Err(Box::new(
                            error(
                                file,
                                v.span(),
                                format!("the exemption of `{}` must be a text", k.get_ref()),
                                "not a text",
                            )
                            .with_help("write the reason: `name = \"why no witness needs to notice it\"`"),
                        ))
                    }
                };
                manifest.exempt.push(Exemption {
                    name: k.get_ref().trim().to_string(),
                    reason,
                    loc: Loc::new(file, Span::from(k.span())),
                });
            }
        }
    }
    Ok(manifest)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parsed(text: &str) -> Result<Manifest, String> {
        parse(text, FileId(0)).map_err(|d| format!("{} {}", d.code, d.message))
    }

    #[test]
    fn an_empty_manifest_exempts_nothing() {
        assert!(parsed("").unwrap().exempt.is_empty());
        assert!(parsed("# the project root\n").unwrap().exempt.is_empty());
    }

    #[test]
    fn exemptions_name_facts_leaves_and_codes_with_reasons() {
        let m = parsed(
            "[mutate.exempt]\nadopted = \"a negative control\"\n\"budget $.serving_budget\" = \" only its order \"\nNotBuilt = \"x\"\n",
        )
        .unwrap();
        let names: Vec<(&str, &str)> = m.exempt.iter().map(|e| e.fact_and_path()).collect();
        assert_eq!(names, [("NotBuilt", "$"), ("adopted", "$"), ("budget", "$.serving_budget")]);
        assert_eq!(m.exempt[2].reason, "only its order");
        assert_eq!(m.exempt[1].loc.span, Span::new(16, 23));
    }

    #[test]
    fn anything_else_is_an_error() {
        assert_eq!(parsed("[mutate.exmpt]\na = \"b\"\n").unwrap_err(), "E0016 unknown key `exmpt` in `[mutate]`");
        assert_eq!(parsed("[package]\n").unwrap_err(), "E0016 unknown key `package` in `Claim.toml`");
        assert_eq!(parsed("mutate = 1\n").unwrap_err(), "E0016 `[mutate]` must be a table");
        assert_eq!(parsed("[mutate.exempt]\na = \"  \"\n").unwrap_err(), "E0016 the exemption of `a` gives no reason");
        assert_eq!(parsed("[mutate.exempt]\na = true\n").unwrap_err(), "E0016 the exemption of `a` must be a text");
        assert!(parsed("[mutate\n").unwrap_err().starts_with("E0016 `Claim.toml` is not TOML"));
    }
}
