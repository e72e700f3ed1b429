#!/usr/bin/env python3
"""Hostile archives derived from the signed valid ones, and their expectations.

    python3 hostile.py            # writes the archives and prints expectation rows (TSV)

Ambiguous zip layouts (what each kind of reader would read differently) and signatures changed
in fields the signature does not cover. Nothing is re-signed: each archive is a valid one with
only its layout or an unsigned field changed, so any acceptance is the reader's fault. Called by
generate.sh, which appends the rows to expectations.tsv; deterministic, so running it again
rewrites the same bytes.
"""
import io
import os
import struct
import subprocess
import tempfile
import sys
import zipfile
import zlib

BASIC = "valid/basic.order"
rows = []


def expect(file, verdict, errors="-", warnings="-"):
    rows.append("\t".join([file, "-", verdict, errors, warnings]))


def entries(path):
    """(name, contents) of every file of an archive, in archive order."""
    with zipfile.ZipFile(path) as z:
        return [(i.filename, z.read(i)) for i in z.infolist()]


def build(files, descriptor=None, lies=None, gap_before=None, comment=b"", garbage_after_stream=None,
          local_extra=None, central_extra=None, extra_records=(), versions=None, flag_bits=None):
    """A zip laid out by hand. `lies` maps a name to local-header overrides (name, flags, method,
    crc, signature); `gap_before` maps a name to bytes placed before its local header;
    `extra_records` adds central-directory records (name, offset of the entry they point at);
    `versions` and `flag_bits` map a name to its version needed to extract and extra flag bits, in
    both headers."""
    lies, gap_before, versions, flag_bits = lies or {}, gap_before or {}, versions or {}, flag_bits or {}
    out, directory, offsets = bytearray(), bytearray(), {}
    for name, data in files:
        raw = name.encode()
        out += gap_before.get(name, b"")
        offsets[name] = len(out)
        deflater = zlib.compressobj(6, zlib.DEFLATED, -15)
        compressed = deflater.compress(data) + deflater.flush()
        if garbage_after_stream and name == garbage_after_stream[0]:
            compressed += garbage_after_stream[1]
        crc = zlib.crc32(data)
        flags = (0x0008 if descriptor else 0) | flag_bits.get(name, 0)
        version = versions.get(name, 20)
        lie = lies.get(name, {})
        zero = descriptor is not None
        lextra = (local_extra or {}).get(name, b"")
        out += struct.pack("<IHHHHHIIIHH", lie.get("signature", 0x04034B50), version, lie.get("flags", flags),
                           lie.get("method", 8), 0x5000, 0x5C2F, lie.get("crc", 0 if zero else crc),
                           0 if zero else len(compressed), 0 if zero else len(data),
                           len(lie.get("name", raw)), len(lextra))
        out += lie.get("name", raw) + lextra + compressed
        if descriptor == "signed":
            out += struct.pack("<IIII", 0x08074B50, crc, len(compressed), len(data))
        elif descriptor == "plain":
            out += struct.pack("<III", crc, len(compressed), len(data))
        cextra = (central_extra or {}).get(name, b"")
        directory += struct.pack("<IHHHHHHIIIHHHHHII", 0x02014B50, 0x031E, version, flags, 8, 0x5000, 0x5C2F, crc,
                                 len(compressed), len(data), len(raw), len(cextra), 0, 0, 0, 0o100644 << 16,
                                 offsets[name]) + raw + cextra
    records = len(files)
    for name, target in extra_records:
        # Repeat the target's central-directory record under another name.
        position = 0
        for _ in range([n for n, _ in files].index(target)):
            n, e, c = struct.unpack_from("<HHH", directory, position + 28)
            position += 46 + n + e + c
        record = bytearray(directory[position:position + 46])
        struct.pack_into("<HHH", record, 28, len(name.encode()), 0, 0)
        directory += record + name.encode()
        records += 1
    eocd = struct.pack("<IHHHHIIH", 0x06054B50, 0, 0, records, records, len(directory), len(out), len(comment))
    return bytes(out + directory + eocd + comment)


def write(path, data):
    with open(path, "wb") as f:
        f.write(data)


def tampered(files):
    """The same order with another order number: unsigned content."""
    return [(n, d.replace(b"ORDER-123", b"ORDER-999") if n == "order.json" else d) for n, d in files]


def unicode_path(name):
    data = b"\x01" + struct.pack("<I", 0) + name.encode()
    return struct.pack("<HH", 0x7075, len(data)) + data


files = entries(BASIC)
original = open(BASIC, "rb").read()

# Valid: real writers that use data descriptors.
write("valid/data-descriptors.order", build(files, descriptor="signed"))
expect("valid/data-descriptors.order", "valid")


def python_zip(streamed, zip64=False):
    """Python's zipfile; streamed (to an unseekable file), with data descriptors; with zip64
    (force_zip64), ZIP64 extra fields in the local headers (sizes set to 0xFFFFFFFF) and 32-bit
    values in the directory, and 64-bit data descriptors when streamed."""
    out = io.BytesIO()

    class Unseekable(io.RawIOBase):
        def writable(self):
            return True

        def write(self, b):
            return out.write(b)

    with zipfile.ZipFile(Unseekable() if streamed else out, "w", zipfile.ZIP_DEFLATED) as z:
        for name, data in files:
            info = zipfile.ZipInfo(name, date_time=(2026, 1, 15, 10, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            with z.open(info, "w", force_zip64=zip64) as w:
                w.write(data)
    return out.getvalue()


write("valid/python-streamed.order", python_zip(streamed=True))
expect("valid/python-streamed.order", "valid")


# Valid: ZIP64 as common writers emit it when forced (.NET does the same in its local headers).
write("valid/python-zip64.order", python_zip(streamed=False, zip64=True))
expect("valid/python-zip64.order", "valid")
write("valid/python-zip64-streamed.order", python_zip(streamed=True, zip64=True))
expect("valid/python-zip64-streamed.order", "valid")


def infozip_zip64():
    """Info-ZIP `zip -fz`: ZIP64 extra fields in local headers and directory, a ZIP64 end record
    and locator, and the end record deferring the directory's offset to them."""
    with tempfile.TemporaryDirectory() as folder:
        for name, data in files:
            path = os.path.join(folder, name)
            with open(path, "wb") as f:
                f.write(data)
            os.utime(path, (1768471200, 1768471200))
        target = os.path.join(folder, "out.zip")
        subprocess.run(["zip", "-X", "-D", "-q", "-fz", target] + [n for n, _ in files], cwd=folder, check=True,
                       env=dict(os.environ, TZ="UTC"))
        return open(target, "rb").read()


write("valid/infozip-zip64.order", infozip_zip64())
expect("valid/infozip-zip64.order", "valid")


def written_by(command, output="out.zip", setup=None):
    """The signed order's files, zipped by another program: `command` runs in a folder holding
    them (fixed times), writing `output` there."""
    with tempfile.TemporaryDirectory() as folder:
        for name, data in files:
            path = os.path.join(folder, name)
            with open(path, "wb") as f:
                f.write(data)
            os.utime(path, (1768471200, 1768471200))
        if setup:
            setup(folder)
        subprocess.run(command, cwd=folder, check=True, env=dict(os.environ, TZ="UTC"), stdout=subprocess.DEVNULL)
        return open(os.path.join(folder, output), "rb").read()


names = [n for n, _ in files]
# Java's jar (ZipOutputStream): data descriptors with their signature, the UTF-8 flag.
write("valid/java-jar.order", written_by(["jar", "--create", "--no-manifest", "--date=2026-01-15T10:00:00Z",
                                          "--file", "out.zip"] + names))
expect("valid/java-jar.order", "valid")

GO_WRITER = """package main

import ("archive/zip"; "os"; "time")

func main() {
	out, _ := os.Create("out.zip")
	w := zip.NewWriter(out)
	for _, name := range os.Args[1:] {
		data, _ := os.ReadFile(name)
		f, _ := w.CreateHeader(&zip.FileHeader{Name: name, Method: zip.Deflate, Modified: time.Date(2026, 1, 15, 10, 0, 0, 0, time.UTC)})
		f.Write(data)
	}
	w.Close()
	out.Close()
}
"""


def go_setup(folder):
    with open(os.path.join(folder, "writer.go"), "w") as f:
        f.write(GO_WRITER)


# Go's archive/zip: data descriptors, an extended-timestamp extra field.
write("valid/go-archive-zip.order", written_by(["go", "run", "writer.go"] + names, setup=go_setup))
expect("valid/go-archive-zip.order", "valid")
# 7-Zip, deflate.
write("valid/7zip-deflate.order", written_by(["7zz", "a", "-tzip", "-mm=Deflate", "-mtc=off", "out.zip"] + names))
expect("valid/7zip-deflate.order", "valid")

# Invalid: ambiguous layouts.
corrupt = "archive.corrupt"
write("invalid/appended-archive.order", original + build(tampered(files)))
expect("invalid/appended-archive.order", "invalid", corrupt)
# A comment holds at most 64 KiB: hide a tampered copy without the images.
small = [(n, d) for n, d in tampered(files) if not n.endswith(".png")]
write("invalid/archive-in-comment.order", build(files, comment=build(small)))
expect("invalid/archive-in-comment.order", "invalid", corrupt)
write("invalid/trailing-bytes.order", original + b"\n")
expect("invalid/trailing-bytes.order", "invalid", corrupt)
write("invalid/two-end-records.order", original + original[-22:])
expect("invalid/two-end-records.order", "invalid", corrupt)
write("invalid/bytes-between-entries.order", build(files, gap_before={"order.json": b"\0" * 16}))
expect("invalid/bytes-between-entries.order", "invalid", corrupt)
write("invalid/overlapping-entries.order", build(files, extra_records=[("copy.png", "item.png")]))
expect("invalid/overlapping-entries.order", "invalid", corrupt)
for label, lie in [("name", {"name": b"sicnature"}), ("flags", {"flags": 0x0800}), ("method", {"method": 0}),
                   ("crc", {"crc": 0xDEADBEEF}), ("signature", {"signature": 0x04034B51})]:
    write(f"invalid/local-header-{label}.order", build(files, lies={"signature": lie}))
    expect(f"invalid/local-header-{label}.order", "invalid", corrupt)
write("invalid/deflate-ends-early.order",
      build(files, descriptor="signed", garbage_after_stream=("order.json", build(small))))
expect("invalid/deflate-ends-early.order", "invalid", corrupt)
write("invalid/unicode-path-extra.order", build(files, central_extra={"order.json": unicode_path("order2.json")}))
expect("invalid/unicode-path-extra.order", "invalid", corrupt)
write("invalid/zip64-extra.order", build(files, central_extra={"item.png": struct.pack("<HHQ", 1, 8, 0)}))
expect("invalid/zip64-extra.order", "invalid", corrupt)

# Invalid: headers that ask for what this reader does not implement (Info-ZIP's unzip skips such
# an entry, Python's zipfile refuses the archive; read here, the signature would go missing there).
unsupported = "archive.unsupportedFeature"
write("invalid/version-needed-14.8.order", build(files, versions={"signature": 148}))
expect("invalid/version-needed-14.8.order", "invalid", unsupported)
write("invalid/masked-local-headers.order", build(files, flag_bits={"signature": 0x2000}))
expect("invalid/masked-local-headers.order", "invalid", unsupported)


# Invalid: signatures changed in fields the signature does not cover.
def der(tag, content):
    n = len(content)
    if n < 0x80:
        return bytes([tag, n]) + content
    length = n.to_bytes((n.bit_length() + 7) // 8, "big")
    return bytes([tag, 0x80 | len(length)]) + length + content


def parse(data):
    """DER → nested [tag, content-bytes or children]."""
    def element(at):
        tag, length, at = data[at], data[at + 1], at + 2
        if length & 0x80:
            count = length & 0x7F
            length, at = int.from_bytes(data[at:at + count], "big"), at + count
        content = data[at:at + length]
        if tag & 0x20:
            children, position = [], 0
            while position < len(content):
                child, position = element_in(content, position)
                children.append(child)
            return [tag, children], at + length
        return [tag, content], at + length

    def element_in(buffer, at):
        nonlocal data
        saved, data = data, buffer
        try:
            return element(at)
        finally:
            data = saved
    return element(0)[0]


def encode(node):
    tag, value = node
    if isinstance(value, list):
        return der(tag, b"".join(encode(child) for child in value))
    return der(tag, value)


def signature_variant(path, change, finish=lambda b: b):
    tree = parse(dict(files)["signature"])
    signer = tree[1][1][1][0][1][4][1][0]       # ContentInfo → [0] → SignedData → signerInfos → SignerInfo
    change(tree, signer)
    changed = [(n, finish(encode(tree)) if n == "signature" else d) for n, d in files]
    write(path, build(changed))


OID = lambda *body: [0x06, bytes(body)]
NULL = [0x05, b""]
md5_rsa = OID(0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x01, 0x04)
sha512_rsa = OID(0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x01, 0x0D)
sha256 = OID(0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, 0x01)


def set_field(signer, index, node):
    signer[1][index] = node


signature_variant("invalid/signature-md5-with-rsa.order", lambda t, s: set_field(s, 4, [0x30, [md5_rsa, NULL]]))
expect("invalid/signature-md5-with-rsa.order", "invalid", "signature.unsupportedAlgorithm")
signature_variant("invalid/signature-sha512-with-rsa.order", lambda t, s: set_field(s, 4, [0x30, [sha512_rsa, NULL]]))
expect("invalid/signature-sha512-with-rsa.order", "invalid", "signature.unsupportedAlgorithm")
signature_variant("invalid/signature-trailing-bytes.order", lambda t, s: None, finish=lambda b: b + b"\0\0")
expect("invalid/signature-trailing-bytes.order", "invalid", "signature.invalidCMS")
signature_variant("invalid/signature-version.order", lambda t, s: set_field(s, 0, [0x02, b"\x02"]))
expect("invalid/signature-version.order", "invalid", "signature.invalidCMS")
signature_variant("invalid/signature-digest-parameters.order",
                  lambda t, s: set_field(s, 2, [0x30, [sha256, [0x04, b"\x01\x02"]]]))
expect("invalid/signature-digest-parameters.order", "invalid", "signature.invalidCMS")
signature_variant("invalid/signature-unsigned-attributes.order", lambda t, s: s[1].append(
    [0xA1, [[0x30, [OID(0x2A, 0x03), [0x31, [[0x04, b"unsigned"]]]]]]]))
expect("invalid/signature-unsigned-attributes.order", "invalid", "signature.invalidCMS")

print("\n".join(rows))
