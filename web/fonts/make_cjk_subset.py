"""Makes web/fonts/tensorpad-cjk-sc.woff2: Noto Sans CJK SC cut down to the CJK characters Tensorpad shows.

A reader whose system has no CJK font (minimal Linux desktops, some containers) would see boxes in the
Chinese chapter; the page may not fetch fonts from elsewhere, so it ships this subset and uses it only
after the usual system CJK families (style.css). The output is committed, with
tensorpad-cjk-sc.json (the characters covered and the file's SHA-256): tests/js/cjk-font.test.mjs
fails when a source gains a character the subset lacks, and says to run this script again.

Needs Debian's fonts-noto-cjk, python3-fonttools and python3-brotli (not needed to build or test):
    /usr/bin/python3 web/fonts/make_cjk_subset.py
"""
import hashlib
import json
import os
import re

from fontTools import subset
from fontTools.ttLib import TTCollection

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
SOURCE = "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc"
SC_INDEX = 2  # JP, KR, SC, TC, HK in the collection
OUT = os.path.join(HERE, "tensorpad-cjk-sc.woff2")

# Where Chinese text lives: chapters, the page's strings, widgets, exercises, the judge. The same rule
# as tests/js/cjk-font.test.mjs (keep the two in step).
SCAN = [("web/chapters", (".md",)), ("web/src", (".js",)), ("web/widgets", (".js",)), ("web/judge", (".js",)), ("web/content", (".js",)),
        ("web/runtime", (".js",)), ("exercises", (".json", ".js", ".md"))]
CJK = re.compile(r"[\u2e80-\u9fff\uf900-\ufaff\ufe30-\ufe4f\uff00-\uffef]")


def characters():
    found = set()
    for folder, exts in SCAN:
        for dirpath, _, files in os.walk(os.path.join(ROOT, folder)):
            for f in files:
                if f.endswith(exts):
                    with open(os.path.join(dirpath, f), encoding="utf-8") as fh:
                        found.update(CJK.findall(fh.read()))
    return "".join(sorted(found))


def main():
    chars = characters()
    font = TTCollection(SOURCE).fonts[SC_INDEX]
    options = subset.Options()
    options.flavor = "woff2"
    options.hinting = False  # screens at reading sizes do not need CFF hints; they are a third of the bytes
    options.desubroutinize = True  # brotli compresses the plain charstrings better than the subroutines
    options.notdef_outline = True
    subsetter = subset.Subsetter(options)
    subsetter.populate(text=chars)
    subsetter.subset(font)
    font.flavor = "woff2"
    font.save(OUT)
    with open(OUT, "rb") as fh:
        digest = hashlib.sha256(fh.read()).hexdigest()
    with open(os.path.join(HERE, "tensorpad-cjk-sc.json"), "w", encoding="utf-8") as fh:
        json.dump({"source": "Noto Sans CJK SC Regular (Debian fonts-noto-cjk), SIL Open Font License 1.1",
                   "characters": chars, "sha256": digest}, fh, ensure_ascii=False, indent=1)
        fh.write("\n")
    print(f"{len(chars)} characters -> {os.path.relpath(OUT, ROOT)} ({os.path.getsize(OUT)} bytes)")


if __name__ == "__main__":
    main()
