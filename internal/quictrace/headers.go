package quictrace

import "strings"

// HeaderField is one decoded field line of an HTTP/3 field section.
type HeaderField struct{ Name, Value string }

// Header is the first value of name in fields ("" when absent).
func Header(fields []HeaderField, name string) string {
	for _, f := range fields {
		if f.Name == name {
			return f.Value
		}
	}
	return ""
}

// collectHeaderSections records what tshark decoded of each HEADERS frame in one packet's http3
// layer, keyed by the frame's payload bytes (hex). tshark decodes QPACK with nghttp3, dynamic
// table included, but its JSON does not say which stream a frame was on; the payload bytes
// tie each decoded section to the HEADERS frame reassembleH3 finds on its stream.
func collectHeaderSections(layer any, into map[string][]HeaderField) {
	var walk func(v any)
	walk = func(v any) {
		switch x := v.(type) {
		case []any:
			for _, e := range x {
				walk(e)
			}
		case map[string]any:
			if str(x, "http3.frame_type") != "" {
				if t, _ := parseUint(str(x, "http3.frame_type")); t == H3FrameHeaders {
					if payload := str(x, "http3.frame_payload"); payload != "" {
						var fields []HeaderField
						for _, h := range list(x["http3.headers.header"]) {
							hm := obj(h)
							fields = append(fields, HeaderField{Name: str(hm, "http3.header.header.name"), Value: str(hm, "http3.headers.header.value")})
						}
						if len(fields) > 0 {
							into[hexKey(payload)] = fields
						}
					}
				}
			}
			for _, e := range x {
				walk(e)
			}
		}
	}
	walk(layer)
}

func hexKey(colonHex string) string { return strings.ToLower(strings.ReplaceAll(colonHex, ":", "")) }

// attachHeaderSections gives each reassembled HEADERS frame the fields tshark decoded for it.
func attachHeaderSections(streams []H3Stream, sections map[string][]HeaderField) {
	if len(sections) == 0 {
		return
	}
	for i := range streams {
		for j := range streams[i].Frames {
			f := &streams[i].Frames[j]
			if f.Type == H3FrameHeaders {
				f.Fields = sections[hexOf(f.Payload)]
			}
		}
	}
}

func hexOf(b []byte) string {
	const digits = "0123456789abcdef"
	out := make([]byte, 2*len(b))
	for i, c := range b {
		out[2*i], out[2*i+1] = digits[c>>4], digits[c&15]
	}
	return string(out)
}
