#!/usr/bin/env python3
"""Write the fuzz targets' seed corpora (fuzz/seeds/<target>/) from the project's own
fixtures: a few small records written by shogi-server (fixtures/csa/server/, one of them
cut short) and one real record (fixtures/csa/real/), alone and packed as the containers
the scan reads (tar, tar.gz, zip; the `containers` target's first byte picks the reader).
Deterministic: no timestamps, fixed names. Run from the repository root."""
import gzip
import io
import os
import tarfile
import zipfile

SERVER = "fixtures/csa/server"
RECORDS = [
    f"{SERVER}/kachi--wdoor+test-3600-0+alice+bob+20261130020538.csa",
    f"{SERVER}/illegal_move--wdoor+test-600-10+alice+bob+20261130020505.csa",
    f"{SERVER}/max_moves--wdoor+test-600-10+alice+bob+20261130020537.csa",
    f"{SERVER}/reject--wdoor+test-600-10+alice+bob+20261130020819.csa",
    "fixtures/csa/real/wdoor+floodgate-900-0+garyu+coredump+20080316040009.csa",
]


def tar_of(files):
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w", format=tarfile.USTAR_FORMAT) as t:
        for name, data in files:
            info = tarfile.TarInfo(name)
            info.size = len(data)
            info.mtime = 0
            t.addfile(info, io.BytesIO(data))
    return buf.getvalue()


def zip_of(files):
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
        for name, data in files:
            z.writestr(zipfile.ZipInfo(name, date_time=(1980, 1, 1, 0, 0, 0)), data)
    return buf.getvalue()


def write(target, name, data):
    d = f"fuzz/seeds/{target}"
    os.makedirs(d, exist_ok=True)
    with open(f"{d}/{name}", "wb") as f:
        f.write(data)


def main():
    records = [(f"2026/{i}.csa", open(p, "rb").read()) for i, p in enumerate(RECORDS)]
    for i, (_, data) in enumerate(records):
        write("csa_reader", f"record{i}.csa", data)
    # A record cut in the middle of a move line.
    write("csa_reader", "truncated.csa", records[0][1][: len(records[0][1]) * 2 // 3])
    tar = tar_of(records[:3])
    write("tar_file", "three.tar", tar)
    write("tar_file", "one.tar", tar_of(records[3:4]))
    # The containers target: first byte 0 tar, 1 tar.gz, 3 zip, 4 a single record.
    write("containers", "tar", b"\x00" + tar)
    write("containers", "tar.gz", b"\x01" + gzip.compress(tar, mtime=0))
    write("containers", "zip", b"\x03" + zip_of(records[:2]))
    write("containers", "csa", b"\x04" + records[4][1])


if __name__ == "__main__":
    main()
