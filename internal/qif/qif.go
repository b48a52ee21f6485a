// Package qif reads and writes the formats of the QPACK offline interop project
// (github.com/quicwg/base-drafts/wiki/QPACK-Offline-Interop), which wirelab's QPACK fuzz targets
// and seed corpora use:
//
//   - QIF: header lists as text, one "name<TAB>value" per line, a blank line ends a list,
//     lines starting with '#' are comments.
//   - Encoded records: a sequence of (stream id: u64 big endian, length: u32 big endian, data);
//     stream 0 carries the encoder stream, every other record is one header block.
package qif

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"fmt"
	"strings"
)

// Field is one header field.
type Field struct{ Name, Value string }

// ParseQIF reads header lists from QIF text. A line without a TAB is an error naming its line.
func ParseQIF(data []byte) ([][]Field, error) {
	var lists [][]Field
	var cur []Field
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimRight(sc.Text(), "\r") // CRLF files; a value cannot end in CR
		switch {
		case strings.HasPrefix(line, "#"):
		case line == "":
			if len(cur) > 0 {
				lists, cur = append(lists, cur), nil
			}
		default:
			name, value, ok := strings.Cut(line, "\t")
			if !ok || name == "" {
				return nil, fmt.Errorf("line %d: want name<TAB>value", n)
			}
			cur = append(cur, Field{name, value})
		}
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	if len(cur) > 0 {
		lists = append(lists, cur)
	}
	return lists, nil
}

// FormatQIF writes header lists as QIF text (ParseQIF's inverse for names without TAB or
// newline and values without newline).
func FormatQIF(lists [][]Field) []byte {
	var b bytes.Buffer
	for _, l := range lists {
		for _, f := range l {
			b.WriteString(f.Name + "\t" + f.Value + "\n")
		}
		b.WriteString("\n")
	}
	return b.Bytes()
}

// EncoderStream is the stream id whose records carry encoder-stream instructions.
const EncoderStream = 0

// headerLen is the size of a record's stream id and length fields.
const headerLen = 12

// Record is one record of an encoded file.
type Record struct {
	Stream uint64
	Data   []byte
}

// ReadRecords splits an encoded file into records. A truncated record is an error naming its
// offset; the records before it are returned too (a fuzzer's input often ends mid-record).
func ReadRecords(data []byte) ([]Record, error) {
	var recs []Record
	for off := 0; off < len(data); {
		if len(data)-off < headerLen {
			return recs, fmt.Errorf("offset %d: %d bytes left, a record header needs %d", off, len(data)-off, headerLen)
		}
		stream := binary.BigEndian.Uint64(data[off:])
		n := int(binary.BigEndian.Uint32(data[off+8:]))
		if n > len(data)-off-headerLen {
			return recs, fmt.Errorf("offset %d: record of %d bytes, only %d left", off, n, len(data)-off-headerLen)
		}
		recs = append(recs, Record{Stream: stream, Data: data[off+headerLen : off+headerLen+n]})
		off += headerLen + n
	}
	return recs, nil
}

// AppendRecord appends one record in the encoded format.
func AppendRecord(dst []byte, r Record) []byte {
	dst = binary.BigEndian.AppendUint64(dst, r.Stream)
	dst = binary.BigEndian.AppendUint32(dst, uint32(len(r.Data)))
	return append(dst, r.Data...)
}
