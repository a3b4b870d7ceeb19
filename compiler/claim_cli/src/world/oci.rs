//! `oci_image(layout, ref)` (§6, `std.oci`): reads an OCI image layout
//! (`oci-layout`, `index.json`, `blobs/sha256/…`), selects the manifest
//! whose `org.opencontainers.image.ref.name` is `ref`, and verifies every
//! blob it reads — manifest, config and each layer — against its digest and
//! size, and each layer's content against the diff id its config names
//! (`layer.rs`). A layout that is malformed, a ref that names no image (or
//! several), a blob that is missing or differs, and a layer whose content
//! is not the config's are each an error naming what was wrong: nothing
//! unverified becomes a value.

use crate::world::beneath::{is_outside, Beneath};
use claim_diagnostics::Diagnostic;
use claim_eval::json::{self, field, text, Json, J};
use claim_eval::value::{hex, parse_hex, RecordVal};
use claim_eval::{Types, Value, WorldCall, WorldCode, WorldError, WorldResult, V};
use claim_sema::ty::{Ty, TypeDef};
use claim_syntax::digest::DigestKind;
use sha2::Digest;
use std::collections::BTreeMap;
use std::path::Path;
use std::sync::Arc;

const REF_NAME: &str = "org.opencontainers.image.ref.name";
/// Media types of an image index (OCI's, and Docker's manifest list).
const INDEX_TYPES: [&str; 2] =
    ["application/vnd.oci.image.index.v1+json", "application/vnd.docker.distribution.manifest.list.v2+json"];
/// Media types of an image manifest.
const MANIFEST_TYPES: [&str; 2] =
    ["application/vnd.oci.image.manifest.v1+json", "application/vnd.docker.distribution.manifest.v2+json"];
/// Media types of an image config.
const CONFIG_TYPES: [&str; 2] =
    ["application/vnd.oci.image.config.v1+json", "application/vnd.docker.container.image.v1+json"];
/// The config of an OCI artifact that has none: every such artifact
/// shares its digest, which names no image.
const EMPTY_TYPE: &str = "application/vnd.oci.empty.v1+json";

struct Layout<'a> {
    dir: &'a Path,
    call: &'a WorldCall<'a>,
    limits: &'a LayoutLimits,
    /// Every file of the layout is opened beneath the project root: a
    /// symlink inside the layout that leads out of it is refused.
    beneath: &'a Beneath,
}

/// What reading a layout may cost.
#[derive(Clone, Copy, Debug)]
pub struct LayoutLimits {
    /// The largest manifest or config read (`--max-load-bytes`).
    pub max_json_bytes: u64,
    /// The longest decompressed layer (`--max-layer-bytes`).
    pub max_layer_bytes: u64,
    /// Threads the layers are verified on (`--jobs`).
    pub jobs: usize,
}

/// 64 GiB: larger than the layers of the largest images in common use
/// (CUDA and model-serving images have layers of a few to 20 GiB).
pub const DEFAULT_MAX_LAYER_BYTES: u64 = 64 << 30;

/// A content descriptor: the digest (hex) and size a blob must have.
#[derive(Clone)]
struct Descriptor {
    hex: String,
    size: u64,
    media_type: Option<String>,
}

impl Layout<'_> {
    fn malformed(&self, what: String) -> WorldError {
        self.refused(WorldCode::NotAnImage, what)
    }

    /// `E0309` with another code than `NotAnImage` (`RefUnknown`, …).
    fn refused(&self, code: WorldCode, what: String) -> WorldError {
        let d = Diagnostic::error("E0309", format!("`{}` is not a usable OCI image layout: {what}", self.call.path))
            .at_loc(self.call.call, "reads this layout");
        WorldError::new(code, d)
    }

    /// `E0310`: a blob that is missing (`BlobMissing`), unreadable, or not
    /// what its descriptor says (`BlobMismatch`).
    fn blob_error(&self, code: WorldCode, what: &str, d: &Descriptor, detail: String) -> WorldError {
        let diagnostic =
            Diagnostic::error("E0310", format!("{what} blob `sha256:{}` of `{}` {detail}", d.hex, self.call.path))
                .at_loc(self.call.call, "reads this layout")
                .with_note(format!(
                    "the blob is `blobs/sha256/{}`; a blob must match the digest and size its descriptor gives",
                    d.hex
                ));
        WorldError::new(code, diagnostic)
    }

    /// Opens a file of the layout, which must be a regular file; `Err`
    /// says what is wrong with it (`is missing`, …), and which refusal a
    /// blob that is so refuses with.
    fn open(&self, rel: &str) -> Result<crate::world::beneath::Opened, (WorldCode, String)> {
        let opened = self.beneath.open(&self.dir.join(rel)).map_err(|e| {
            if is_outside(&e) {
                (WorldCode::OutsideProject, "leads out of the project root through a symlink".to_string())
            } else if e.kind() == std::io::ErrorKind::NotFound {
                (WorldCode::BlobMissing, "is missing".to_string())
            } else {
                (WorldCode::FileUnreadable, format!("cannot be read: {e}"))
            }
        })?;
        if !opened.meta.is_file() {
            return Err((WorldCode::FileUnreadable, "is not a regular file".into()));
        }
        Ok(opened)
    }

    fn read_json_file(&self, name: &str) -> WorldResult<Json<'static>> {
        let mut opened = self.open(name).map_err(|(_, e)| self.malformed(format!("`{name}` {e}")))?;
        let bytes =
            crate::world::readahead::read_sized(&mut opened.file, opened.meta.len(), self.limits.max_json_bytes)
                .map_err(|e| self.malformed(format!("cannot read `{name}`: {e}")))?;
        if bytes.len() as u64 > self.limits.max_json_bytes {
            return Err(self
                .malformed(format!("`{name}` is larger than the load limit of {} bytes", self.limits.max_json_bytes)));
        }
        let text = String::from_utf8(bytes).map_err(|_| self.malformed(format!("`{name}` is not UTF-8")))?;
        json::parse(&text)
            .map(Json::into_owned)
            .map_err(|e| self.malformed(format!("`{name}` is not valid JSON: {} at byte {}", e.message, e.span.start)))
    }

    fn descriptor(&self, j: &Json<'_>, what: &str) -> WorldResult<Descriptor> {
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

    /// A blob's bytes, read once and checked against its descriptor's size
    /// and digest: what is hashed is what is parsed.
    fn read_blob(&self, what: &str, d: &Descriptor) -> WorldResult<Vec<u8>> {
        let rel = format!("blobs/sha256/{}", d.hex);
        let mut opened = self.open(&rel).map_err(|(code, e)| self.blob_error(code, what, d, e))?;
        if opened.meta.len() != d.size {
            return Err(self.blob_error(
                WorldCode::BlobMismatch,
                what,
                d,
                format!("has {} bytes, its descriptor says {}", opened.meta.len(), d.size),
            ));
        }
        if d.size > self.limits.max_json_bytes {
            return Err(self.blob_error(
                WorldCode::FileTooLarge,
                what,
                d,
                format!("is larger than the load limit of {} bytes", self.limits.max_json_bytes),
            ));
        }
        let bytes = crate::world::readahead::read_sized(&mut opened.file, d.size, self.limits.max_json_bytes)
            .map_err(|e| self.blob_error(WorldCode::FileUnreadable, what, d, format!("cannot be read: {e}")))?;
        let actual: [u8; 32] = sha2::Sha256::digest(&bytes).into();
        if bytes.len() as u64 != d.size || hex(&actual) != d.hex {
            return Err(self.blob_error(
                WorldCode::BlobMismatch,
                what,
                d,
                format!("does not match its digest: its bytes hash to `sha256:{}`", hex(&actual)),
            ));
        }
        Ok(bytes)
    }

    fn parse_blob(&self, what: &str, d: &Descriptor) -> WorldResult<Json<'static>> {
        let bytes = self.read_blob(what, d)?;
        let text = String::from_utf8(bytes).map_err(|_| self.malformed(format!("the {what} is not UTF-8")))?;
        json::parse(&text)
            .map(Json::into_owned)
            .map_err(|e| self.malformed(format!("the {what} is not valid JSON: {}", e.message)))
    }
}

/// What a world call of a layout is given: the layout's folder and its
/// limits, the call, and the root every file is opened beneath.
pub struct LayoutCall<'a> {
    pub dir: &'a Path,
    pub call: &'a WorldCall<'a>,
    pub limits: &'a LayoutLimits,
    pub beneath: &'a Beneath,
}

impl<'a> LayoutCall<'a> {
    fn layout(&self) -> Layout<'a> {
        Layout { dir: self.dir, call: self.call, limits: self.limits, beneath: self.beneath }
    }
}

/// `oci_image(layout, ref)`: the one image `ref` names. An index refuses
/// `PlatformRequired`, naming its platforms.
pub fn read_image(at: &LayoutCall<'_>, reference: &str, ty: &Ty, types: &Types) -> WorldResult<Value> {
    let l = at.layout();
    let index = l.open_layout()?;
    let desc = tagged(&l, &index, reference, "manifest")?;
    let top = l.parse_blob(if is_index(&desc) { "index" } else { "manifest" }, &desc)?;
    if is_index(&desc) || is_index_json(&top) {
        let entries = l.entries(&top, 0)?;
        let platforms: Vec<&str> = entries.platforms.iter().map(|(p, _)| p.as_str()).collect();
        let mut e = l.refused(
            WorldCode::PlatformRequired,
            format!("`{reference}` names an image index, not one image manifest"),
        );
        if let Some(d) = e.diagnostics.first_mut() {
            d.notes.push(format!("its platforms are {}", claim_diagnostics::and_list(&platforms)));
            d.help = Some("choose one with `oci_image_for(layout, ref, platform)`".into());
        }
        return Err(e);
    }
    l.image(reference, &desc, &top, ty, types).map(|(v, _)| v)
}

/// `oci_image_for(layout, ref, platform)`: the image of `platform` in the
/// index `ref` names (nested indexes followed), or the one image `ref`
/// names where it is of that platform. The index's word for the platform
/// must be the config's.
pub fn read_image_for(
    at: &LayoutCall<'_>,
    reference: &str,
    platform: &str,
    ty: &Ty,
    types: &Types,
) -> WorldResult<Value> {
    let l = at.layout();
    let index = l.open_layout()?;
    let desc = tagged(&l, &index, reference, "manifest")?;
    let top = l.parse_blob(if is_index(&desc) { "index" } else { "manifest" }, &desc)?;
    if !is_index(&desc) && !is_index_json(&top) {
        let (image, its) = l.image(reference, &desc, &top, ty, types)?;
        if its != platform {
            return Err(l.refused(
                WorldCode::PlatformUnknown,
                format!("`{reference}` is one image, of the platform `{its}`, not `{platform}`"),
            ));
        }
        return Ok(image);
    }
    let entries = l.entries(&top, 0)?;
    let found: Vec<&Descriptor> = entries.platforms.iter().filter(|(p, _)| p == platform).map(|(_, d)| d).collect();
    let d = match found.as_slice() {
        [one] => *one,
        [] => {
            let platforms: Vec<&str> = entries.platforms.iter().map(|(p, _)| p.as_str()).collect();
            let mut e = l.refused(
                WorldCode::PlatformUnknown,
                format!("the index `{reference}` has no image of the platform `{platform}`"),
            );
            if let Some(d) = e.diagnostics.first_mut() {
                d.notes.push(match platforms.is_empty() {
                    true => "it has no platform image".to_string(),
                    false => format!("its platforms are {}", claim_diagnostics::and_list(&platforms)),
                });
            }
            return Err(e);
        }
        many => {
            return Err(l.malformed(format!(
                "the index `{reference}` has {} images of the platform `{platform}`; a platform must name one",
                many.len()
            )))
        }
    };
    let manifest = l.parse_blob("manifest", d)?;
    let (image, its) = l.image(reference, d, &manifest, ty, types)?;
    if its != platform {
        return Err(l.malformed(format!(
            "the index says the manifest `sha256:{}` is of `{platform}`, but its config says `{its}`",
            d.hex
        )));
    }
    Ok(image)
}

/// `oci_index(layout, ref)`: the index `ref` names, its platforms'
/// manifests and its attestation manifests apart, nested indexes followed.
pub fn read_index(at: &LayoutCall<'_>, reference: &str, ty: &Ty, types: &Types) -> WorldResult<Value> {
    let l = at.layout();
    let index = l.open_layout()?;
    let desc = tagged(&l, &index, reference, "index")?;
    let top = l.parse_blob(if is_index(&desc) { "index" } else { "manifest" }, &desc)?;
    if !is_index(&desc) && !is_index_json(&top) {
        return Err(
            l.refused(WorldCode::NotAnIndex, format!("`{reference}` names one image manifest, not an image index"))
        );
    }
    let entries = l.entries(&top, 0)?;
    let digest = |hex: &str| Value::digest(DigestKind::Sha256, &parse_hex(hex, 32).unwrap_or_default());
    let manifests = entries
        .platforms
        .iter()
        .map(|(p, d)| l.record(ty, types, "PlatformManifest", vec![Value::text(p.as_str()), digest(&d.hex)]))
        .collect::<WorldResult<Vec<_>>>()?;
    let attestations = entries
        .attestations
        .iter()
        .map(|(d, describes)| l.record(ty, types, "AttestationManifest", vec![digest(&d.hex), digest(describes)]))
        .collect::<WorldResult<Vec<_>>>()?;
    l.record(ty, types, "Index", vec![digest(&desc.hex), Value::list(manifests), Value::list(attestations)])
}

/// A value of the record type `ty` from its fields' values in order;
/// `None` where `ty` is no record of that many fields.
pub fn record_of(ty: &Ty, types: &Types, values: Vec<Value>) -> Option<Value> {
    let Ty::Named(name) = ty else { return None };
    let Some(TypeDef::Record { fields, .. }) = types.get(name).map(|t| &t.def) else { return None };
    (values.len() == fields.names().len()).then(|| {
        Value::new(V::Record(Arc::new(RecordVal { name: name.name.clone(), names: fields.names(), fields: values })))
    })
}

/// Whether a descriptor says it is of an index.
fn is_index(d: &Descriptor) -> bool {
    d.media_type.as_deref().is_some_and(|t| INDEX_TYPES.contains(&t))
}

/// Whether a parsed blob says it is an index (its media type, or a
/// `manifests` list where it names none).
fn is_index_json(j: &Json<'_>) -> bool {
    match text(field(j, "mediaType")) {
        Some(t) => INDEX_TYPES.contains(&t),
        None => field(j, "manifests").is_some() && field(j, "config").is_none(),
    }
}

/// The descriptor `ref` names in `index.json` (read as `what`): the one
/// tagged `ref` (`RefUnknown` naming the tags where none is).
fn tagged(l: &Layout<'_>, index: &Json<'_>, reference: &str, what: &str) -> WorldResult<Descriptor> {
    let Some(J::Array(manifests)) = field(index, "manifests").map(|m| &m.kind) else {
        return Err(l.malformed("`index.json` has no `manifests` array".into()));
    };
    let tagged: Vec<&Json> = manifests
        .iter()
        .filter(|m| text(field(m, "annotations").and_then(|a| field(a, REF_NAME))) == Some(reference))
        .collect();
    match tagged.as_slice() {
        [one] => l.descriptor(one, what),
        [] => {
            let known: Vec<&str> = manifests
                .iter()
                .filter_map(|m| text(field(m, "annotations").and_then(|a| field(a, REF_NAME))))
                .collect();
            let mut d = l.refused(WorldCode::RefUnknown, format!("no image is tagged `{reference}`"));
            if let Some(first) = d.diagnostics.first_mut() {
                first.notes.push(if known.is_empty() {
                    "the layout tags no image".to_string()
                } else {
                    format!("its tags are {}", claim_diagnostics::and_list(&known))
                });
            }
            Err(d)
        }
        many => Err(l.malformed(format!("{} images are tagged `{reference}`; a tag must name one image", many.len()))),
    }
}

/// An index's entries, nested indexes followed, in the index's order.
#[derive(Default)]
struct Entries {
    /// Each platform's image manifest, by its platform's text.
    platforms: Vec<(String, Descriptor)>,
    /// Each attestation manifest, with the hex of the manifest it describes.
    attestations: Vec<(Descriptor, String)>,
}

/// BuildKit's annotations of an attestation manifest in an index.
const REFERENCE_TYPE: &str = "vnd.docker.reference.type";
const REFERENCE_DIGEST: &str = "vnd.docker.reference.digest";

/// How deep indexes may nest (an index of indexes of images is two).
const INDEX_DEPTH: usize = 8;

/// A descriptor's `platform` as `os/architecture[/variant]`.
fn platform_text(p: &Json<'_>) -> Option<String> {
    let (os, arch) = (text(field(p, "os"))?, text(field(p, "architecture"))?);
    Some(match text(field(p, "variant")) {
        Some(v) => format!("{os}/{arch}/{v}"),
        None => format!("{os}/{arch}"),
    })
}

impl Layout<'_> {
    /// The layout's `index.json`, after its `oci-layout` marker says it is
    /// a version-1 layout.
    fn open_layout(&self) -> WorldResult<Json<'static>> {
        let marker = self.read_json_file("oci-layout")?;
        match text(field(&marker, "imageLayoutVersion")) {
            None => return Err(self.malformed("`oci-layout` has no `imageLayoutVersion`".into())),
            // Version 1 of the layout, as the image-spec defines it (a later
            // minor version only adds what a reader may ignore).
            Some(v) if v.strip_prefix("1.").is_some_and(|rest| rest.split('.').count() == 2) => {}
            Some(v) => {
                return Err(self.malformed(format!("`oci-layout` is of version `{v}`; Claim reads version 1 (`1.0.0`)")))
            }
        }
        let index = self.read_json_file("index.json")?;
        self.schema_version(&index, "`index.json`")?;
        Ok(index)
    }

    /// The entries of an index (each nested index read, verified, and
    /// followed).
    fn entries(&self, index: &Json<'_>, depth: usize) -> WorldResult<Entries> {
        let mut out = Entries::default();
        self.add_entries(index, depth, &mut out)?;
        Ok(out)
    }

    fn add_entries(&self, index: &Json<'_>, depth: usize, out: &mut Entries) -> WorldResult<()> {
        if depth > INDEX_DEPTH {
            return Err(self.malformed(format!("its indexes nest deeper than {INDEX_DEPTH}")));
        }
        self.schema_version(index, "the index")?;
        let Some(J::Array(ms)) = field(index, "manifests").map(|m| &m.kind) else {
            return Err(self.malformed("the index has no `manifests` array".into()));
        };
        for (i, m) in ms.iter().enumerate() {
            let d = self.descriptor(m, &format!("index entry {i}"))?;
            let annotations = field(m, "annotations");
            if text(annotations.and_then(|a| field(a, REFERENCE_TYPE))) == Some("attestation-manifest") {
                let describes = text(annotations.and_then(|a| field(a, REFERENCE_DIGEST)))
                    .and_then(|s| s.strip_prefix("sha256:"))
                    .filter(|h| parse_hex(h, 32).is_some())
                    .ok_or_else(|| {
                        self.malformed(format!(
                            "the attestation manifest at index entry {i} names no `{REFERENCE_DIGEST}` it describes"
                        ))
                    })?;
                out.attestations.push((d, describes.to_string()));
                continue;
            }
            if is_index(&d) {
                let nested = self.parse_blob("nested index", &d)?;
                self.add_entries(&nested, depth + 1, out)?;
                continue;
            }
            let platform = field(m, "platform").and_then(platform_text).ok_or_else(|| {
                self.malformed(format!("index entry {i} names no platform (`os` and `architecture`)"))
            })?;
            out.platforms.push((platform, d));
        }
        Ok(())
    }

    /// A value of the record `name` of `std.oci` (the module `ty` is of).
    fn record(&self, ty: &Ty, types: &Types, name: &str, values: Vec<Value>) -> WorldResult<Value> {
        let Ty::Named(of) = ty else { return Err(WorldError::internal("an index's type", self.call.call)) };
        let sibling = Ty::named(claim_sema::ty::GlobalName::of(of.module.clone(), Arc::from(name)));
        record_of(&sibling, types, values)
            .ok_or_else(|| WorldError::internal(format!("`{name}` is not a record of these fields"), self.call.call))
    }

    /// The image of an image manifest (`desc`, read as `manifest`), every
    /// blob verified, and its platform.
    fn image(
        &self,
        reference: &str,
        manifest_desc: &Descriptor,
        manifest: &Json<'_>,
        ty: &Ty,
        types: &Types,
    ) -> WorldResult<(Value, String)> {
        let l = self;
        l.schema_version(manifest, "the manifest")?;
        match text(field(manifest, "mediaType")) {
            Some(t) if INDEX_TYPES.contains(&t) => {
                return Err(l.refused(
                    WorldCode::PlatformRequired,
                    format!("`{reference}` names an image index, not one image manifest"),
                ))
            }
            Some(t) if !MANIFEST_TYPES.contains(&t) => {
                return Err(l.malformed(format!("the manifest's media type `{t}` is not an image manifest's")))
            }
            _ => {}
        }
        if let Some(kind) = text(field(manifest, "artifactType")) {
            return Err(l.malformed(format!("`{reference}` is an OCI artifact (`{kind}`), not an image")));
        }
        let config_desc = l.descriptor(
            field(manifest, "config").ok_or_else(|| l.malformed("the manifest has no `config`".into()))?,
            "config",
        )?;
        match config_desc.media_type.as_deref() {
            Some(EMPTY_TYPE) => {
                return Err(l.malformed(format!(
                    "`{reference}` is an OCI artifact: its config is the empty descriptor, which names no image"
                )))
            }
            Some(t) if !CONFIG_TYPES.contains(&t) => {
                return Err(l.malformed(format!(
                    "`{reference}` is not an image: its config's media type is `{t}`, not an image config's"
                )))
            }
            _ => {}
        }
        let config = l.parse_blob("config", &config_desc)?;
        if !matches!(config.kind, J::Object(_)) {
            return Err(l.malformed(format!("the config is {}, not an object", config.describe())));
        }
        let Some(J::Array(ls)) = field(manifest, "layers").map(|x| &x.kind) else {
            return Err(l.malformed("the manifest has no `layers` array".into()));
        };
        let layers = ls
            .iter()
            .enumerate()
            .map(|(i, layer)| l.descriptor(layer, &format!("layer {i}")))
            .collect::<Result<Vec<_>, _>>()?;
        let diff_ids = l.diff_ids(&config)?;
        let platform = l.platform(&config)?;
        l.verify_layers(&layers, &diff_ids)?;
        let mut labels = BTreeMap::new();
        if let Some(J::Object(ls)) = field(&config, "config").and_then(|c| field(c, "Labels")).map(|x| &x.kind) {
            for (k, _, v) in ls {
                let J::Str(s) = &v.kind else {
                    return Err(l.malformed(format!("the config label `{k}` is not a string")));
                };
                labels.insert(k.to_string(), Value::text(s.as_ref()));
            }
        }
        let digest = |d: &Descriptor| Value::digest(DigestKind::Sha256, &parse_hex(&d.hex, 32).unwrap_or_default());
        let values = vec![
            digest(manifest_desc),
            digest(&config_desc),
            Value::list(layers.iter().map(digest).collect()),
            Value::new(V::Map(Arc::new(labels))),
            Value::text(platform.as_str()),
            Value::list(diff_ids.iter().map(|d| Value::digest(DigestKind::Sha256, d)).collect()),
        ];
        Ok((l.record(ty, types, "Image", values)?, platform))
    }
}

impl Layout<'_> {
    /// `schemaVersion` 2, the only version of an OCI index or manifest
    /// (a Docker v2 schema 1 manifest names no config).
    fn schema_version(&self, j: &Json<'_>, what: &str) -> WorldResult<()> {
        match field(j, "schemaVersion").map(|v| &v.kind) {
            Some(J::Number(n)) if n == "2" => Ok(()),
            Some(J::Number(n)) => Err(self.malformed(format!("{what} has `schemaVersion` {n}; an image has 2"))),
            _ => Err(self.malformed(format!("{what} has no `schemaVersion` 2"))),
        }
    }

    /// The config's `rootfs.diff_ids`: the digests of the layers' content.
    fn diff_ids(&self, config: &Json<'_>) -> WorldResult<Vec<[u8; 32]>> {
        let rootfs = field(config, "rootfs").ok_or_else(|| self.malformed("the config has no `rootfs`".into()))?;
        if text(field(rootfs, "type")) != Some("layers") {
            return Err(self.malformed("the config's `rootfs.type` is not `layers`".into()));
        }
        let Some(J::Array(ids)) = field(rootfs, "diff_ids").map(|x| &x.kind) else {
            return Err(self.malformed("the config has no `rootfs.diff_ids` array".into()));
        };
        ids.iter()
            .enumerate()
            .map(|(i, id)| {
                text(Some(id))
                    .and_then(|t| t.strip_prefix("sha256:"))
                    .and_then(|h| parse_hex(h, 32))
                    .and_then(|b| <[u8; 32]>::try_from(&b[..]).ok())
                    .ok_or_else(|| {
                        self.malformed(format!("the config's diff id {i} is not `sha256:` and 64 lowercase hex digits"))
                    })
            })
            .collect()
    }

    /// `os/architecture`, or `os/architecture/variant`, from the config.
    fn platform(&self, config: &Json<'_>) -> WorldResult<String> {
        let part = |key: &str| text(field(config, key)).filter(|t| !t.is_empty() && !t.contains('/'));
        let (Some(os), Some(arch)) = (part("os"), part("architecture")) else {
            return Err(self.malformed("the config does not name its platform (`os` and `architecture`)".into()));
        };
        Ok(match part("variant") {
            Some(v) => format!("{os}/{arch}/{v}"),
            None => format!("{os}/{arch}"),
        })
    }

    /// Every layer's blob against its descriptor, and its content against
    /// the diff id at its place; on the configured threads, with the first
    /// layer that fails (in the manifest's order) reported whatever the
    /// threads did first.
    fn verify_layers(&self, layers: &[Descriptor], diff_ids: &[[u8; 32]]) -> WorldResult<()> {
        if layers.len() != diff_ids.len() {
            let d = Diagnostic::error(
                "E0311",
                format!(
                    "the image in `{}` has {} layer{} but its config names {} diff id{}",
                    self.call.path,
                    layers.len(),
                    if layers.len() == 1 { "" } else { "s" },
                    diff_ids.len(),
                    if diff_ids.len() == 1 { "" } else { "s" }
                ),
            )
            .at_loc(self.call.call, "reads this layout")
            .with_note("a config's `rootfs.diff_ids` names the content of each layer, one for one");
            return Err(WorldError::new(WorldCode::LayerContentMismatch, d));
        }
        let mut media = Vec::with_capacity(layers.len());
        for (i, d) in layers.iter().enumerate() {
            let media_type = d.media_type.as_deref().unwrap_or("");
            let Some(c) = crate::world::layer::compression_of(media_type) else {
                let d = Diagnostic::error(
                    "E0312",
                    format!("layer {i} of `{}` has the media type `{media_type}`, which is not a layer Claim can read", self.call.path),
                )
                .at_loc(self.call.call, "reads this layout")
                .with_note("a layer is an uncompressed, gzip or zstd tar (`application/vnd.oci.image.layer.v1.tar`, `+gzip`, `+zstd`, or Docker's `rootfs.diff.tar.gzip`)");
                return Err(WorldError::new(WorldCode::MediaTypeUnsupported, d));
            };
            media.push((i, c));
        }
        let results =
            crate::parallel::map(&media, self.limits.jobs, |&(i, c)| self.verify_layer(i, &layers[i], c, &diff_ids[i]));
        results.into_iter().collect()
    }

    fn verify_layer(
        &self,
        i: usize,
        d: &Descriptor,
        compression: crate::world::layer::Compression,
        diff_id: &[u8; 32],
    ) -> WorldResult<()> {
        use crate::world::layer::ContentError;
        let what = format!("layer {i}");
        let crate::world::beneath::Opened { file, meta } =
            self.open(&format!("blobs/sha256/{}", d.hex)).map_err(|(code, e)| self.blob_error(code, &what, d, e))?;
        if meta.len() != d.size {
            let detail = format!("has {} bytes, its descriptor says {}", meta.len(), d.size);
            return Err(self.blob_error(WorldCode::BlobMismatch, &what, d, detail));
        }
        // The blob is read once: what is hashed is what is decompressed.
        let digests = crate::world::layer::digest_layer(file, compression, self.limits.max_layer_bytes)
            .map_err(|e| self.blob_error(WorldCode::FileUnreadable, &what, d, format!("cannot be read: {e}")))?;
        // A blob that is not its descriptor's is that error first.
        if hex(&digests.blob) != d.hex || digests.blob_len != d.size {
            return Err(self.blob_error(
                WorldCode::BlobMismatch,
                &what,
                d,
                format!("does not match its digest: its bytes hash to `sha256:{}`", hex(&digests.blob)),
            ));
        }
        match digests.content {
            Ok(content) if content == *diff_id => Ok(()),
            Ok(content) => {
                Err(self.content_error(i, d, diff_id, &format!("its content hashes to `sha256:{}`", hex(&content))))
            }
            Err(ContentError::Decode(why)) => Err(self.content_error(i, d, diff_id, &why)),
            Err(ContentError::TooLarge { limit }) => Err(WorldError::new(
                WorldCode::FileTooLarge,
                Diagnostic::error(
                    "E0313",
                    format!("layer {i} of `{}` decompresses to more than {limit} bytes", self.call.path),
                )
                .at_loc(self.call.call, "reads this layout")
                .with_note(format!("the blob is `blobs/sha256/{}`", d.hex))
                .with_help("raise the limit with `--max-layer-bytes` where a layer this large is expected"),
            )),
        }
    }

    fn content_error(&self, i: usize, d: &Descriptor, diff_id: &[u8; 32], why: &str) -> WorldError {
        let diagnostic = Diagnostic::error(
            "E0311",
            format!("layer {i} of `{}` is not the content its config names: {why}", self.call.path),
        )
        .at_loc(self.call.call, "reads this layout")
        .with_note(format!(
            "layer {i} is the blob `sha256:{}`; the config's diff id {i} is `sha256:{}`",
            d.hex,
            hex(diff_id)
        ))
        .with_note("a config digest names an image's content only through its diff ids: an image whose layers are other bytes is not that image");
        WorldError::new(WorldCode::LayerContentMismatch, diagnostic)
    }
}
