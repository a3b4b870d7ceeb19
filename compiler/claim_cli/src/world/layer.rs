//! What an image layer holds. A layer blob is read once: its bytes are
//! hashed as they are read (the digest its descriptor names), and
//! decompressed as its media type says into the digest of its content (the
//! diff id its image's config names). A config digest names an image's
//! content only through these diff ids, so a layer whose content is not
//! the one its config names must never pass as that image.

use sha2::{Digest, Sha256};
use std::io::{BufRead, BufReader, Read};

/// How a layer's bytes are compressed, by its media type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Compression {
    None,
    Gzip,
    Zstd,
}

/// The compression a layer media type names; `None` for a media type that
/// is not a layer Claim can read (a foreign layer type, an artifact's blob).
/// OCI's own types, their non-distributable forms, and Docker's.
pub fn compression_of(media_type: &str) -> Option<Compression> {
    match media_type {
        "application/vnd.oci.image.layer.v1.tar"
        | "application/vnd.oci.image.layer.nondistributable.v1.tar"
        | "application/vnd.docker.image.rootfs.diff.tar" => Some(Compression::None),
        "application/vnd.oci.image.layer.v1.tar+gzip"
        | "application/vnd.oci.image.layer.nondistributable.v1.tar+gzip"
        | "application/vnd.docker.image.rootfs.diff.tar.gzip"
        | "application/vnd.docker.image.rootfs.foreign.diff.tar.gzip" => Some(Compression::Gzip),
        "application/vnd.oci.image.layer.v1.tar+zstd"
        | "application/vnd.oci.image.layer.nondistributable.v1.tar+zstd" => Some(Compression::Zstd),
        _ => None,
    }
}

/// A layer's two digests.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LayerDigests {
    /// SHA-256 of the blob's bytes, and how many there were.
    pub blob: [u8; 32],
    pub blob_len: u64,
    /// SHA-256 of the decompressed bytes (the diff id), or why there is
    /// none.
    pub content: Result<[u8; 32], ContentError>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ContentError {
    /// The bytes are not a stream of the media type's compression: what
    /// was wrong.
    Decode(String),
    /// The decompressed stream is longer than the limit.
    TooLarge { limit: u64 },
}

/// Reads bytes through, hashing each and counting them; remembers whether
/// the source itself failed (a decoder reports its errors and the
/// source's alike).
struct Hashing<R> {
    inner: R,
    hash: Sha256,
    len: u64,
    failed: bool,
}

impl<R: Read> Read for Hashing<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.inner.read(buf).inspect_err(|_| self.failed = true)?;
        self.hash.update(&buf[..n]);
        self.len += n as u64;
        Ok(n)
    }
}

/// Pieces the compressed bytes are read in, and the decompressed hashed in.
const PIECE: usize = 256 * 1024;

/// The digests of a layer's blob, read from `source` to its end, and of its
/// content decompressed as `compression` says. The content is streamed, in
/// constant memory: a stream longer than `max_content` bytes stops there
/// (a decompression bomb costs time, never memory). The blob is hashed to
/// its end whatever its content, so a blob that is not its descriptor's is
/// told apart from one whose content is wrong. `Err` only where the source
/// could not be read.
///
/// **Decisions:** gzip may be several members one after another (RFC 1952,
/// as `gzip -d` reads them), and zstd several frames, skippable frames
/// included (RFC 8878); any other byte after the stream (zeros too, which
/// `gzip -d` ignores and Go's `compress/gzip` refuses), a truncated stream
/// and an empty blob are not the stream the media type names: bytes the
/// diff id does not cover are refused, not skipped.
pub fn digest_layer(source: impl Read, compression: Compression, max_content: u64) -> std::io::Result<LayerDigests> {
    let mut input =
        BufReader::with_capacity(PIECE, Hashing { inner: source, hash: Sha256::new(), len: 0, failed: false });
    let mut content = Content { hash: Sha256::new(), len: 0, limit: max_content };
    let decoded = match compression {
        // The blob is the content: read through once, hashed once.
        Compression::None => match std::io::copy(&mut input, &mut std::io::sink()) {
            Ok(n) if n > max_content => Err(Stop::Content(ContentError::TooLarge { limit: max_content })),
            Ok(_) => Ok(()),
            Err(e) => Err(Stop::Io(e)),
        },
        Compression::Gzip => gzip_members(&mut input, &mut content),
        Compression::Zstd => zstd_frames(&mut input, &mut content),
    };
    // Every decoder above stops only at the end of its input; a byte left
    // is one the content digest did not cover. After a failure, the rest
    // of the blob is hashed all the same.
    let rest = std::io::copy(&mut input, &mut std::io::sink())?;
    let Hashing { hash, len, failed, .. } = input.into_inner();
    let blob: [u8; 32] = hash.finalize().into();
    let content = match decoded {
        Err(Stop::Io(e)) if failed || !matches!(compression, Compression::Gzip | Compression::Zstd) => return Err(e),
        Err(Stop::Io(e)) => Err(ContentError::Decode(format!("not a {} stream: {e}", name(compression)))),
        Err(Stop::Content(c)) => Err(c),
        Ok(()) if rest > 0 => {
            Err(ContentError::Decode(format!("{rest} bytes follow the {} stream", name(compression))))
        }
        Ok(()) if compression == Compression::None => Ok(blob),
        Ok(()) => Ok(content.hash.finalize().into()),
    };
    Ok(LayerDigests { blob, blob_len: len, content })
}

fn name(c: Compression) -> &'static str {
    match c {
        Compression::None => "tar",
        Compression::Gzip => "gzip",
        Compression::Zstd => "zstd",
    }
}

/// Why decompressing stopped before the end.
enum Stop {
    Io(std::io::Error),
    Content(ContentError),
}

impl Stop {
    /// A decoder's error that says the stream ended early is a truncated
    /// stream; other errors are told apart from the source's by
    /// [`Hashing::failed`].
    fn decoding(self, what: &str) -> Stop {
        match self {
            Stop::Io(e) if e.kind() == std::io::ErrorKind::UnexpectedEof => {
                Stop::Content(ContentError::Decode(format!("the {what} stream ends early (truncated)")))
            }
            other => other,
        }
    }
}

/// Every gzip member of the input, in turn, to its end: a member starts
/// with gzip's magic bytes; anything else after the first is not part of
/// the stream.
fn gzip_members<R: Read>(input: &mut BufReader<Hashing<R>>, content: &mut Content) -> Result<(), Stop> {
    let mut members = 0usize;
    loop {
        let next = input.fill_buf().map_err(Stop::Io)?;
        if next.is_empty() {
            if members == 0 {
                return Err(Stop::Content(ContentError::Decode("the blob is empty, not a gzip stream".into())));
            }
            return Ok(());
        }
        if members > 0 && !next.starts_with(&[0x1f, 0x8b]) {
            let rest = std::io::copy(input, &mut std::io::sink()).map_err(Stop::Io)?;
            return Err(Stop::Content(ContentError::Decode(format!("{rest} bytes follow the gzip stream"))));
        }
        content.take_all(&mut flate2::bufread::GzDecoder::new(&mut *input)).map_err(|e| e.decoding("gzip"))?;
        members += 1;
    }
}

/// Every zstd frame of the input, in turn, to its end.
fn zstd_frames<R: Read>(input: &mut BufReader<Hashing<R>>, content: &mut Content) -> Result<(), Stop> {
    use ruzstd::decoding::errors::{FrameDecoderError, ReadFrameHeaderError};
    let mut frames = 0usize;
    while !input.fill_buf().map_err(Stop::Io)?.is_empty() {
        match ruzstd::decoding::StreamingDecoder::new(&mut *input) {
            Ok(mut frame) => {
                content.take_all(&mut frame).map_err(|e| e.decoding("zstd"))?;
                frames += 1;
            }
            Err(FrameDecoderError::ReadFrameHeaderError(ReadFrameHeaderError::SkipFrame { length, .. })) => {
                let skipped = std::io::copy(&mut (&mut *input).take(u64::from(length)), &mut std::io::sink())
                    .map_err(Stop::Io)?;
                if skipped < u64::from(length) {
                    return Err(Stop::Content(ContentError::Decode(
                        "a skippable zstd frame ends early (truncated)".into(),
                    )));
                }
            }
            Err(e) => return Err(Stop::Content(ContentError::Decode(format!("not a zstd stream: {e}")))),
        }
    }
    if frames == 0 {
        return Err(Stop::Content(ContentError::Decode("the blob holds no zstd frame".into())));
    }
    Ok(())
}

/// The decompressed stream's digest, its length, and the limit on it.
struct Content {
    hash: Sha256,
    len: u64,
    limit: u64,
}

impl Content {
    fn take_all(&mut self, r: &mut impl Read) -> Result<(), Stop> {
        let mut buf = vec![0u8; PIECE];
        loop {
            let n = match r.read(&mut buf) {
                Ok(0) => return Ok(()),
                Ok(n) => n,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(Stop::Io(e)),
            };
            self.len += n as u64;
            if self.len > self.limit {
                return Err(Stop::Content(ContentError::TooLarge { limit: self.limit }));
            }
            self.hash.update(&buf[..n]);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    fn sha(b: &[u8]) -> [u8; 32] {
        Sha256::digest(b).into()
    }

    fn gzip(b: &[u8]) -> Vec<u8> {
        let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
        e.write_all(b).expect("write");
        e.finish().expect("finish")
    }

    fn digests(bytes: &[u8], c: Compression, limit: u64) -> LayerDigests {
        digest_layer(bytes, c, limit).expect("an in-memory source reads")
    }

    #[test]
    fn a_plain_layer_is_its_own_content() {
        let d = digests(b"tar bytes", Compression::None, u64::MAX);
        assert_eq!((d.blob, d.content, d.blob_len), (sha(b"tar bytes"), Ok(sha(b"tar bytes")), 9));
    }

    #[test]
    fn gzip_members_one_after_another_are_one_content() {
        let mut two = gzip(b"first ");
        two.extend(gzip(b"second"));
        let d = digests(&two, Compression::Gzip, u64::MAX);
        assert_eq!(d.content, Ok(sha(b"first second")));
        assert_eq!(d.blob, sha(&two));
    }

    #[test]
    fn what_is_not_the_stream_is_refused_and_the_blob_still_hashed_whole() {
        let good = gzip(b"content");
        let mut trailing = good.clone();
        trailing.extend(b"junk");
        let truncated = &good[..good.len() - 5];
        let cases = [
            ("trailing", &trailing[..], Compression::Gzip),
            ("truncated", truncated, Compression::Gzip),
            ("empty gzip", &b""[..], Compression::Gzip),
            ("not zstd", &b"not zstd"[..], Compression::Zstd),
            ("empty zstd", &b""[..], Compression::Zstd),
            ("gzip as zstd", &good[..], Compression::Zstd),
        ];
        for (what, bytes, c) in cases {
            let d = digests(bytes, c, u64::MAX);
            assert!(matches!(d.content, Err(ContentError::Decode(_))), "{what}: {:?}", d.content);
            assert_eq!((d.blob, d.blob_len), (sha(bytes), bytes.len() as u64), "{what}");
        }
    }

    #[test]
    fn a_stream_longer_than_the_limit_stops_there() {
        let bomb = gzip(&vec![0u8; 10 * PIECE]);
        let d = digests(&bomb, Compression::Gzip, 3 * PIECE as u64);
        assert_eq!(d.content, Err(ContentError::TooLarge { limit: 3 * PIECE as u64 }));
        assert!(digests(&bomb, Compression::Gzip, 10 * PIECE as u64).content.is_ok());
        let plain = digests(&[0u8; 100], Compression::None, 99);
        assert_eq!(plain.content, Err(ContentError::TooLarge { limit: 99 }));
    }

    #[test]
    fn a_source_that_fails_is_an_error_not_a_content() {
        struct Broken;
        impl Read for Broken {
            fn read(&mut self, _: &mut [u8]) -> std::io::Result<usize> {
                Err(std::io::Error::other("disk"))
            }
        }
        for c in [Compression::None, Compression::Gzip, Compression::Zstd] {
            assert!(digest_layer(Broken, c, u64::MAX).is_err(), "{c:?}");
        }
    }

    #[test]
    fn media_types() {
        assert_eq!(compression_of("application/vnd.oci.image.layer.v1.tar+gzip"), Some(Compression::Gzip));
        assert_eq!(compression_of("application/vnd.oci.image.layer.v1.tar+zstd"), Some(Compression::Zstd));
        assert_eq!(compression_of("application/vnd.docker.image.rootfs.diff.tar.gzip"), Some(Compression::Gzip));
        assert_eq!(compression_of("application/vnd.oci.image.layer.v1.tar"), Some(Compression::None));
        assert_eq!(compression_of("application/vnd.oci.image.layer.v1.tar+bzip2"), None);
        assert_eq!(compression_of("application/vnd.in-toto+json"), None);
    }
}
