#!/usr/bin/python3
"""Writes the seed corpus of the fuzz targets (tests/fuzz/corpus/{safetensors,npy}/): small valid files in
every dtype, plus a few near-misses. The .npy seeds come from numpy itself. Run: /usr/bin/python3 make_seeds.py"""
import io, json, os, struct
import numpy as np

here = os.path.dirname(os.path.abspath(__file__))


def safetensors(entries, metadata=None, pad=0, data_extra=b""):
    header, data = {}, b""
    if metadata is not None:
        header["__metadata__"] = metadata
    for name, dtype, shape, raw in entries:
        header[name] = {"dtype": dtype, "shape": shape, "data_offsets": [len(data), len(data) + len(raw)]}
        data += raw
    text = json.dumps(header, separators=(",", ":")).encode() + b" " * pad
    return struct.pack("<Q", len(text)) + text + data + data_extra


def write(kind, name, blob):
    os.makedirs(os.path.join(here, "corpus", kind), exist_ok=True)
    with open(os.path.join(here, "corpus", kind, name), "wb") as f:
        f.write(blob)


rng = np.random.default_rng(0)
st_types = {"F64": "<f8", "F32": "<f4", "F16": "<f2", "I64": "<i8", "I32": "<i4", "I16": "<i2", "I8": "i1",
            "U32": "<u4", "U16": "<u2", "U8": "u1", "BOOL": "?"}
for dt, np_dt in st_types.items():
    a = (rng.standard_normal((2, 3)) * 10).astype(np_dt)
    write("safetensors", f"{dt.lower()}.safetensors", safetensors([("w", dt, [2, 3], a.tobytes())]))
bf16 = (rng.standard_normal(4).astype("<f4").view("<u4") >> 16).astype("<u2")
write("safetensors", "bf16.safetensors", safetensors([("w", "BF16", [4], bf16.tobytes())]))
for dt in ["F8_E4M3", "F8_E5M2", "F8_E8M0"]:
    write("safetensors", f"{dt.lower()}.safetensors", safetensors([("w", dt, [2, 2], bytes([0x38, 0xfe, 0x7f, 0x01]))]))
write("safetensors", "u64.safetensors", safetensors([("w", "U64", [2], np.array([1, 2**64 - 1], "<u8").tobytes())]))
write("safetensors", "two_meta.safetensors",
      safetensors([("a.weight", "F32", [2], b"\0" * 8), ("b", "F16", [1, 1], b"\0\x3c"), ("e", "F32", [0], b"")],
                  metadata={"format": "pt"}, pad=3))
write("safetensors", "scalar.safetensors", safetensors([("s", "F32", [], b"\0\0\x80\x3f")]))
write("safetensors", "empty.safetensors", safetensors([]))
overlap = b'{"a":{"dtype":"F32","shape":[2],"data_offsets":[0,8]},"b":{"dtype":"F32","shape":[2],"data_offsets":[4,12]}}'
write("safetensors", "overlap.safetensors", struct.pack("<Q", len(overlap)) + overlap + b"\0" * 12)

npy_arrays = {
    "f4_2x3": np.arange(6, dtype="<f4").reshape(2, 3), "f8_scalar": np.float64(2.5),
    "f2": np.array([1, -2, 65504], "<f2"), "i1": np.array([-128, 0, 127], "i1"), "u1": np.array([0, 255], "u1"),
    "i4": np.array([[1, -1]], "<i4"), "u8": np.array([2**63], "<u8"), "b1": np.array([True, False]), "fortran": np.asfortranarray(np.ones((2, 3, 2))),
    "empty": np.zeros((0, 2), "<f4"), "be": np.arange(2, dtype=">f4"),
}
for name, a in npy_arrays.items():
    b = io.BytesIO()
    np.save(b, a)
    write("npy", f"{name}.npy", b.getvalue())
for version in [(2, 0), (3, 0)]:
    b = io.BytesIO()
    np.lib.format.write_array(b, np.arange(3, dtype="<f4"), version=version)
    write("npy", f"v{version[0]}.npy", b.getvalue())
