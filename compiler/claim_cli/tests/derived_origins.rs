//! A value made from a receipt's value keeps where that came from (§7):
//! a refusal whose message names a text built by `split`, `++`, `take`,
//! `hex`, `text()` or interpolation points into the receipt, with the
//! steps it was made through.

mod common;

#[test]
fn a_refusal_points_into_the_receipt_through_the_functions_that_made_its_value() {
    let receipt = r#"{"tag": "registry.example.com/app:v41", "cfg": "sha256:c0ffee5e1f2a3b4c5d6e7f8091a2b3c4d5e6f708192a3b4c5d6e7f8091a2b3c4"}"#;
    let main = "record R { tag: Text, cfg: Sha256 }\n\
                refusal Bad \"bad\"\n\
                fact r: R = load(\"r.json\")\n\
                fn refused(t: Text) -> Bool { refuse Bad \"{t} is not allowed\" }\n\
                witness by_split { holds refused(unwrap_or(nth(split(r.tag, \":\"), 1), \"\")) }\n\
                witness by_concat { holds refused(\"v\" ++ r.tag) }\n\
                witness by_take_of_lower { holds refused(take(lower(r.tag), 5)) }\n\
                witness by_hex { holds refused(hex(r.cfg)) }\n\
                witness by_text { holds refused(text(r.cfg)) }\n\
                witness by_interpolation { holds refused(\"{r.tag}!\") }\n\
                witness from_a_literal { holds refused(\"v41\") }\n";
    let dir = common::project_dir("origins", "derived", &[("main.claim", main), ("r.json", receipt)]);
    let (code, out) = common::batch_in_with(&dir, &["--format", "json"]);
    assert_eq!(code, 1, "{out}");
    let doc: serde_json::Value = serde_json::from_str(&out).expect("json");
    let labels = |witness: &str| -> Vec<String> {
        let w = doc["witnesses"].as_array().expect("witnesses").iter().find(|w| w["name"] == witness).expect(witness);
        w["diagnostics"][0]["secondary"]
            .as_array()
            .expect("labels")
            .iter()
            .filter(|l| l["file"] == "r.json")
            .map(|l| format!("{}:{}", l["column"], l["label"].as_str().unwrap_or("")))
            .collect()
    };
    assert_eq!(labels("by_split"), ["9:`t` was made through `split` from `$.tag`"]);
    assert_eq!(labels("by_concat"), ["9:`t` was made through `++` from `$.tag`"]);
    assert_eq!(labels("by_take_of_lower"), ["9:`t` was made through `lower` and `take` from `$.tag`"]);
    assert_eq!(labels("by_hex"), ["48:`t` was made through `hex` from `$.cfg`"]);
    assert_eq!(labels("by_text"), ["48:`t` was made through `text` from `$.cfg`"]);
    assert_eq!(labels("by_interpolation"), ["9:`t` was made through `interpolation` from `$.tag`"]);
    assert!(labels("from_a_literal").is_empty(), "a literal's text is in the program, not the receipt");
    let _ = std::fs::remove_dir_all(&dir);
}
