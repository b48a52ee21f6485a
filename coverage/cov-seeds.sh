#!/usr/bin/env bash
# cov-seeds.sh DIR — writes the hand-made QPACK decoder seeds coverage found missing (issue #6)
# into DIR as cov-* files, in the record format of fuzz/common/records.h:
#   preamble: u16 BE table capacity, u8 max blocked streams, u8 knobs; then records:
#   u64 BE stream id (0 = encoder stream), u32 BE length, data.
# Each seed is a valid use of a QPACK feature (RFC 9204) that neither the encoder-made seeds nor
# minutes of fuzzing produced; the bytes are spelled out so a reader can check them.
set -euo pipefail
dir=${1:?usage: cov-seeds.sh DIR}
mkdir -p "$dir"

hex() { printf '%b' "$(sed -E 's/[[:space:]]+//g; s/(..)/\\x\1/g' <<<"$1")"; }
be() { printf "%0$(($2 * 2))x" "$1"; } # be VALUE BYTES: big-endian hex
record() { # record STREAM-ID HEX-DATA
  local data=${2//[[:space:]]/}
  echo "$(be "$1" 8)$(be $((${#data} / 2)) 4)$data"
}

# Dynamic table capacity 256; encoder stream: Set Dynamic Table Capacity 256 (001 11111 + 225),
# Insert With Literal Name "a"="b" (01 0 00001 'a', 0 0000001 'b'), then "c"="d".
preamble=$(be 256 2)0000
encoder=$(record 0 "3fe101 41 61 01 62 41 63 01 64")

# Post-base indexing (RFC 9204 4.5.3): Required Insert Count 2 (encoded 2 % 16 + 1 = 03), Base 0
# (sign 1, Delta Base = 2 - 0 - 1: 81); Indexed Field Line With Post-Base Index 0 and 1 (0001 xxxx).
hex "$preamble$encoder$(record 4 "03 81 10 11")" >"$dir/cov-postbase-indexed"

# Literal Field Line With Post-Base Name Reference (0000 N xxx): names of entries 0 and 1,
# values "xyz" and "" .
hex "$preamble$encoder$(record 4 "03 81 00 03 78797a 01 00")" >"$dir/cov-postbase-name"

# Literal Field Line With Name Reference to the dynamic table (01 N T=0 xxxx), Base 2 (sign 0,
# delta 0): relative index 0 = entry 1 ("c"), 1 = entry 0 ("a"); values "zz" and Huffman "www"
# (H=1, 3 bytes: f1 e3 c7 — 'w' is 7 bits 1111000, padded with ones).
hex "$preamble$encoder$(record 8 "03 00 40 02 7a7a 41 83 f1e3c7")" >"$dir/cov-dynamic-name"

# Both sections after one another on two streams, each ending in a Section Acknowledgment.
hex "$preamble$encoder$(record 4 "03 81 10 11")$(record 8 "03 00 40 02 7a7a")" >"$dir/cov-two-sections"

# A blocked stream (RFC 9204 2.1.2), max blocked streams 1: the section (Required Insert Count 1,
# encoded 02; Base 1: 00; Indexed Field Line, dynamic, relative index 0: 80) arrives before the
# insert it needs and is decoded once the encoder stream delivers it; its Section Acknowledgment
# then precedes the Insert Count Increment on the decoder stream.
hex "$(be 256 2)0100$(record 4 "02 00 80")$(record 0 "3fe101 41 61 01 62")" >"$dir/cov-blocked"

# Malformed: a post-base index at or beyond the Required Insert Count (Base 0, post-base index 2
# = absolute 2, but only 2 inserts are required): the decoder must reject it (RFC 9204 4.5.3).
hex "$preamble$encoder$(record 4 "03 81 12")" >"$dir/cov-postbase-beyond-ric"

# Malformed: a post-base reference to an evicted entry. Capacity 40 (Set Dynamic Table Capacity:
# 3f 09) holds one 34-byte entry, so inserting "c"="d" evicts "a"="b"; the section (Required
# Insert Count 2, encoded 2 % 2 + 1 = 01; Base 0: 81) then names absolute index 0 post-base (10).
hex "$(be 40 2)0000$(record 0 "3f09 41 61 01 62 41 63 01 64")$(record 4 "01 81 10")" >"$dir/cov-postbase-evicted"

# Encoder-stream flood (nghttp3 caps an encoder stream not interleaved with field sections at
# 128 KiB): 131073 one-byte Set Dynamic Table Capacity 0 instructions (20).
{
  hex "$(be 256 2)0000$(be 0 8)$(be 131073 4)"
  head -c 131073 /dev/zero | tr '\0' '\040'
} >"$dir/cov-encoder-flood"
