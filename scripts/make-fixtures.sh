#!/usr/bin/env bash
# Regenerate the synthetic multi-year fixture set and its packed forms.
#
# Needs python3 with cshogi (the corpus generator replays every move with it), 7zz (Debian
# package `7zip`), GNU tar and gzip. Run from the repository root; the generator lives in the
# study's shared bench folder beside the repository.
#
#   scripts/make-fixtures.sh
#
# Output (all deterministic: same bytes on every run):
#   fixtures/synthetic/records/YYYY/*.csa   the records
#   fixtures/synthetic/synthetic.tar        tar of the records (entries YYYY/<id>.csa)
#   fixtures/synthetic/synthetic.tar.gz     the same tar, gzip -9 -n
#   fixtures/synthetic/synthetic.7z         one solid LZMA2 block, like a yearly wdoor archive
#   fixtures/synthetic/synthetic.zip        deflate
set -euo pipefail

GAMES=${GAMES:-150}
SEED=${SEED:-20260}
ENTERING=${ENTERING:-0.3}
GEN=../shared/bench/make_corpus.py
OUT=fixtures/synthetic
STAMP='2026-11-29 00:00:00Z'

python3 -c 'import cshogi' 2>/dev/null || pip install cshogi
rm -rf "$OUT/records" "$OUT"/synthetic.* "$OUT"/synthetic-blocks.7z
mkdir -p "$OUT"
python3 "$GEN" --style server -n "$GAMES" --seed "$SEED" --entering "$ENTERING" -j 2 -o "$OUT/records"

# Fixed timestamps so every container holds the same bytes on every run.
find "$OUT/records" -exec touch -h -d "$STAMP" {} +
tar --sort=name --mtime="$STAMP" --owner=0 --group=0 --numeric-owner --format=ustar \
    -C "$OUT/records" -cf "$OUT/synthetic.tar" $(cd "$OUT/records" && ls -1)
gzip -9 -n -c "$OUT/synthetic.tar" > "$OUT/synthetic.tar.gz"
( cd "$OUT/records" && 7zz a -bd -bso0 -t7z -m0=lzma2 -mx=9 -ms=on -mtm=off -mtc=off -mta=off \
    ../synthetic.7z $(ls -1) )
( cd "$OUT/records" && 7zz a -bd -bso0 -t7z -m0=lzma2 -mx=9 -ms=10f -mtm=off -mtc=off -mta=off \
    ../synthetic-blocks.7z $(ls -1) )
( cd "$OUT/records" && 7zz a -bd -bso0 -tzip -mx=9 -mtm=off -mtc=off -mta=off \
    ../synthetic.zip $(ls -1) )
ls -l "$OUT"
