//! `oci_image(layout, ref)` (§6, `std.oci`): reads an OCI image layout
//! (`oci-layout`, `index.json`, `blobs/sha256/…`), selects the manifest
//! whose `org.opencontainers.image.ref.name` is `ref`, and verifies every
//! blob it reads — manifest, config and each layer — against its digest and
//! size. A layout that is malformed, a ref that names no image (or several),
//! and a blob that is missing or differs are each an error naming what was
//! wrong: nothing unverified becomes a value.

use crate::world::sha256_file;
use claim_diagnostics::Diagnostic;
use claim_eval::json::{self, Json, J};
use claim_eval::value::{hex, parse_hex, RecordVal};
use claim_eval::{Types, Value, WorldCall, V};
use claim_sema::ty::{Ty, TypeDef};
use claim_syntax::token::DigestKind;
use std::collections::BTreeMap;
use std::path::Path;
use std::sync::Arc;

const REF_NAME: &str = "org.opencontainers.image.ref.name";
const INDEX_TYPE: &str = "application/vnd.oci.image.index.v1+json";

struct Layout<'a> {
    dir: &'a Path,
    call: &'a WorldCall<'a>,
    max_bytes: u64,
}

/// A content descriptor: the digest (hex) and size a blob must have.
struct Descriptor {
    hex: String,
    size: u64,
    media_type: Option<String>,
}

fn field<'j>(j: &'j Json<'_>, key: &str) -> Option<&'j Json<'j>> {
    match &j.kind {
        J::Object(fields) => fields.iter().find(|(k, _, _)| k == key).map(|(_, _, v)| v),
        _ => None,
    }
}

fn text<'j>(j: Option<&'j Json<'_>>) -> Option<&'j str> {
    match j.map(|j| &j.kind) {
        Some(J::Str(s)) => Some(s),
        _ => None,
    }
}

impl Layout<'_> {
    fn malformed(&self, what: String) -> Vec<Diagnostic> {
        vec![Diagnostic::error("E0309", format!("`{}` is not a usable OCI image layout: {what}", self.call.path))
            .at_loc(self.call.call, "reads this layout")]
    }

    fn blob_error(&self, what: &str, d: &Descriptor, detail: String) -> Vec<Diagnostic> {
        vec![Diagnostic::error("E0310", format!("{what} blob `sha256:{}` of `{}` {detail}", d.hex, self.call.path))
            .at_loc(self.call.call, "reads this layout")
            .with_note(format!(
                "the blob is `blobs/sha256/{}`; a blob must match the digest and size its descriptor gives",
                d.hex
            ))]
    }

    fn read_json_file(&self, name: &str) -> Result<Json<'static>, Vec<Diagnostic>> {
        let path = self.dir.join(name);
        let bytes =
            crate::world::read_regular(&path).map_err(|e| self.malformed(format!("cannot read `{name}`: {e}")))?;
        let text = String::from_utf8(bytes).map_err(|_| self.malformed(format!("`{name}` is not UTF-8")))?;
        json::parse(&text)
            .map(Json::into_owned)
            .map_err(|e| self.malformed(format!("`{name}` is not valid JSON: {} at byte {}", e.message, e.span.start)))
    }

    fn descriptor(&self, j: &Json<'_>, what: &str) -> Result<Descriptor, Vec<Diagnostic>> {
        let digest =
            text(field(j, "digest")).ok_or_else(|| self.malformed(format!("the {what} descriptor has no `digest`")))?;
        let hex = digest.strip_prefix("sha256:").filter(|h| parse_hex(h, 32).is_some()).ok_or_else(|| {
            self.malformed(format!("the {what} digest `{digest}` is not `sha256:` and 64 lowercase hex digits"))
        })?;
        let size = match field(j, "size").map(|s| &s.kind) {
            Some(J::Number(n)) => n.parse::<u64>().ok(),
            _ => None,
        }
        .ok_or_else(|| self.malformed(format!("the {what} descriptor has no whole `size`")))?;
        Ok(Descriptor { hex: hex.to_string(), size, media_type: text(field(j, "mediaType")).map(str::to_string) })
    }

    /// Checks a blob's size and digest (streamed, so layers of any size are
    /// fine), and returns its bytes when asked to.
    fn verify(&self, what: &str, d: &Descriptor, read: bool) -> Result<Option<Vec<u8>>, Vec<Diagnostic>> {
        let path = self.dir.join("blobs/sha256").join(&d.hex);
        let meta = std::fs::symlink_metadata(&path).map_err(|_| self.blob_error(what, d, "is missing".into()))?;
        if !meta.is_file() {
            return Err(self.blob_error(what, d, "is not a regular file".into()));
        }
        if meta.len() != d.size {
            return Err(self.blob_error(what, d, format!("has {} bytes, its descriptor says {}", meta.len(), d.size)));
        }
        let actual = sha256_file(&path).map_err(|e| self.blob_error(what, d, format!("cannot be read: {e}")))?;
        if hex(&actual) != d.hex {
            return Err(self.blob_error(
                what,
                d,
                format!("does not match its digest: its bytes hash to `sha256:{}`", hex(&actual)),
            ));
        }
        if !read {
            return Ok(None);
        }
        if d.size > self.max_bytes {
            return Err(self.blob_error(what, d, format!("is larger than the load limit of {} bytes", self.max_bytes)));
        }
        std::fs::read(&path).map(Some).map_err(|e| self.blob_error(what, d, format!("cannot be read: {e}")))
    }

    fn parse_blob(&self, what: &str, d: &Descriptor) -> Result<Json<'static>, Vec<Diagnostic>> {
        let bytes = self.verify(what, d, true)?.unwrap_or_default();
        let text = String::from_utf8(bytes).map_err(|_| self.malformed(format!("the {what} is not UTF-8")))?;
        json::parse(&text)
            .map(Json::into_owned)
            .map_err(|e| self.malformed(format!("the {what} is not valid JSON: {}", e.message)))
    }
}

pub fn read_image(
    dir: &Path,
    call: &WorldCall<'_>,
    reference: &str,
    ty: &Ty,
    types: &Types,
    max_bytes: u64,
) -> Result<Value, Vec<Diagnostic>> {
    let l = Layout { dir, call, max_bytes };
    let marker = l.read_json_file("oci-layout")?;
    if text(field(&marker, "imageLayoutVersion")).is_none() {
        return Err(l.malformed("`oci-layout` has no `imageLayoutVersion`".into()));
    }
    let index = l.read_json_file("index.json")?;
    let Some(J::Array(manifests)) = field(&index, "manifests").map(|m| &m.kind) else {
        return Err(l.malformed("`index.json` has no `manifests` array".into()));
    };
    let tagged: Vec<&Json> = manifests
        .iter()
        .filter(|m| text(field(m, "annotations").and_then(|a| field(a, REF_NAME))) == Some(reference))
        .collect();
    let chosen = match tagged.as_slice() {
        [one] => *one,
        [] => {
            let known: Vec<&str> = manifests
                .iter()
                .filter_map(|m| text(field(m, "annotations").and_then(|a| field(a, REF_NAME))))
                .collect();
            let mut d = l.malformed(format!("no image is tagged `{reference}`"));
            if let Some(first) = d.first_mut() {
                first.code = "E0309";
                first.notes.push(if known.is_empty() {
                    "the layout tags no image".to_string()
                } else {
                    format!("its tags are {}", claim_diagnostics::and_list(&known))
                });
            }
            return Err(d);
        }
        many => {
            return Err(
                l.malformed(format!("{} images are tagged `{reference}`; a tag must name one image", many.len()))
            )
        }
    };
    let manifest_desc = l.descriptor(chosen, "manifest")?;
    if manifest_desc.media_type.as_deref() == Some(INDEX_TYPE) {
        return Err(l.malformed(format!("`{reference}` names an image index, not one image manifest")));
    }
    let manifest = l.parse_blob("manifest", &manifest_desc)?;
    let config_desc = l.descriptor(
        field(&manifest, "config").ok_or_else(|| l.malformed("the manifest has no `config`".into()))?,
        "config",
    )?;
    let config = l.parse_blob("config", &config_desc)?;
    let mut layers = Vec::new();
    if let Some(J::Array(ls)) = field(&manifest, "layers").map(|x| &x.kind) {
        for (i, layer) in ls.iter().enumerate() {
            let d = l.descriptor(layer, &format!("layer {i}"))?;
            l.verify(&format!("layer {i}"), &d, false)?;
            layers.push(d);
        }
    } else {
        return Err(l.malformed("the manifest has no `layers` array".into()));
    }
    let mut labels = BTreeMap::new();
    if let Some(J::Object(ls)) = field(&config, "config").and_then(|c| field(c, "Labels")).map(|x| &x.kind) {
        for (k, _, v) in ls {
            let J::Str(s) = &v.kind else { return Err(l.malformed(format!("the config label `{k}` is not a string"))) };
            labels.insert(k.to_string(), Value::text(s.as_ref()));
        }
    }
    let digest = |d: &Descriptor| Value::digest(DigestKind::Sha256, &parse_hex(&d.hex, 32).unwrap_or_default());
    let Ty::Named(name) = ty else {
        return Err(l.malformed("internal: `oci_image` must return `std.oci.Image`".into()));
    };
    let Some(TypeDef::Record { fields, .. }) = types.get(name).map(|t| &t.def) else {
        return Err(l.malformed("internal: `std.oci.Image` is not a record".into()));
    };
    let values = vec![
        digest(&manifest_desc),
        digest(&config_desc),
        Value::list(layers.iter().map(digest).collect()),
        Value::new(V::Map(Arc::new(labels))),
    ];
    Ok(Value::new(V::Record(Arc::new(RecordVal { name: name.name.clone(), names: fields.names(), fields: values }))))
}
