package fuzzseeds

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/wirelab/wirelab/internal/tshark/tsharktest"
)

// line is one line of tshark output; given the columns before quic.stream.fin, it adds a FIN flag
// of False for every STREAM frame of the datagram.
func line(cols ...string) string {
	if len(cols) == len(Fields)-1 {
		fin := make([]string, len(split(cols[6])))
		for i := range fin {
			fin[i] = "False"
		}
		cols = append(cols, strings.Join(fin, "|"))
	}
	return strings.Join(cols, "\t") + "\n"
}

func TestParseFieldsMatchesOffsetsAndLengthsByFlags(t *testing.T) {
	out := line("12", "198.19.50.100", "", "59700", "443", "0", "6|0|4", "True|False|False", "4", "True|True|False", "1|2", "aa|0001|beef") +
		line("13", "198.19.51.100", "", "443", "59700", "0", "0", "True", "2", "False", "", "d1d7") +
		line("14", "", "fd00::1", "4443", "59700", "1|1", "3", "False", "", "True", "0", "") + // empty data, LEN 0
		line("15", "10.0.0.1", "", "53", "5353", "", "0", "False", "", "False", "", "00") + // no QUIC port: skipped
		"\n"
	frames, skipped, err := ParseFields(strings.NewReader(out))
	if err != nil {
		t.Fatal(err)
	}
	want := []StreamFrame{
		{Frame: 12, Conn: 0, Dir: ToServer, StreamID: 6, Offset: 4, Data: []byte{0xaa}},
		{Frame: 12, Conn: 0, Dir: ToServer, StreamID: 0, Offset: 0, Data: []byte{0x00, 0x01}},
		{Frame: 12, Conn: 0, Dir: ToServer, StreamID: 4, Offset: 0, Data: []byte{0xbe, 0xef}},
		{Frame: 13, Conn: 0, Dir: ToClient, StreamID: 0, Offset: 2, Data: []byte{0xd1, 0xd7}},
		{Frame: 14, Conn: 1, Dir: ToClient, StreamID: 3, Data: nil},
	}
	if !reflect.DeepEqual(frames, want) || skipped != 1 {
		t.Errorf("got %+v skipped %d\nwant %+v", frames, skipped, want)
	}
	// tshark 4.4 prints an empty frame's data (a FIN-only frame, LEN 0) as <MISSING>.
	frames, _, err = ParseFields(strings.NewReader(line("16", "a", "", "1", "443", "0", "0|0|4", "True|True|False", "4|5", "True|True|True", "1|0|1", "aa|<MISSING>|bb")))
	if err != nil || len(frames) != 3 || frames[1].Data != nil || frames[1].Offset != 5 || frames[2].Data[0] != 0xbb {
		t.Errorf("<MISSING> data: %+v %v", frames, err)
	}
	// tshark leaving out an empty frame's data (LEN 0) among others still lines up.
	frames, _, err = ParseFields(strings.NewReader(line("20", "a", "", "1", "443", "0", "0|4", "False|False", "", "True|True", "0|1", "ff")))
	if err != nil || len(frames) != 2 || frames[0].Data != nil || frames[1].Data[0] != 0xff {
		t.Errorf("empty data left out: %+v %v", frames, err)
	}
}

func TestParseFieldsRejectsBadOutput(t *testing.T) {
	for name, l := range map[string]string{
		"columns":             "12\t1.2.3.4\t443\n",
		"frame number":        line("x", "", "", "1", "443", "0", "0", "False", "", "False", "", "00"),
		"stream id":           line("1", "", "", "1", "443", "0", "zz", "False", "", "False", "", "00"),
		"flag count":          line("1", "", "", "1", "443", "0", "0|4", "False", "", "False|False", "", "00|00"),
		"flag value":          line("1", "", "", "1", "443", "0", "0", "Maybe", "", "False", "", "00"),
		"offset missing":      line("1", "", "", "1", "443", "0", "0", "True", "", "False", "", "00"),
		"offset extra":        line("1", "", "", "1", "443", "0", "0", "False", "7", "False", "", "00"),
		"offset value":        line("1", "", "", "1", "443", "0", "0", "True", "-1", "False", "", "00"),
		"length missing":      line("1", "", "", "1", "443", "0", "0", "False", "", "True", "", "00"),
		"length value":        line("1", "", "", "1", "443", "0", "0", "False", "", "True", "x", "00"),
		"length mismatch":     line("1", "", "", "1", "443", "0", "0", "False", "", "True", "2", "00"),
		"data missing":        line("1", "", "", "1", "443", "0", "0|4", "False|False", "", "False|False", "", "00"),
		"data extra":          line("1", "", "", "1", "443", "0", "0", "False", "", "False", "", "00|01"),
		"data not hex":        line("1", "", "", "1", "443", "0", "0", "False", "", "False", "", "0g"),
		"data odd hex digits": line("1", "", "", "1", "443", "0", "0", "False", "", "False", "", "000"),
		"MISSING but LEN > 0": line("1", "", "", "1", "443", "0", "0", "False", "", "True", "3", "<MISSING>"),
	} {
		if _, _, err := ParseFields(strings.NewReader(l)); err == nil {
			t.Errorf("%s: no error for %q", name, l)
		} else if !strings.Contains(err.Error(), "line 1") {
			t.Errorf("%s: error %q does not name the line", name, err)
		}
	}
}

func TestCellsBadInput(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "f")
	must(t, os.WriteFile(file, nil, 0o644))
	empty := filepath.Join(dir, "run")
	must(t, os.MkdirAll(filepath.Join(empty, "a_b", "handshake"), 0o755))
	must(t, os.WriteFile(filepath.Join(empty, "c_d"), nil, 0o644))
	for _, c := range []struct{ run, want string }{
		{filepath.Join(dir, "nosuch"), "no such run folder"},
		{file, "not a folder"},
		{empty, "no http3 cells"},
	} {
		_, err := Cells(c.run)
		if err == nil || !errors.Is(err, ErrBadInput) || !strings.HasPrefix(err.Error(), c.run+": ") || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want a bad-input error naming it: %s", c.run, err, c.want)
		}
	}
	must(t, os.MkdirAll(filepath.Join(empty, "z_y", "http3"), 0o755))
	must(t, os.MkdirAll(filepath.Join(empty, "a_b", "http3"), 0o755))
	cells, err := Cells(empty)
	if err != nil || len(cells) != 2 || cells[0].Name != "a_b" || cells[1].Name != "z_y" {
		t.Errorf("cells %+v %v", cells, err)
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// fakeTshark answers Exec with canned output (or an error) per trace file name.
type fakeTshark struct {
	out   map[string]string
	calls []string
}

func (f *fakeTshark) Exec(_ context.Context, pcap, keylog string, w io.Writer, _ ...string) error {
	f.calls = append(f.calls, filepath.Base(filepath.Dir(filepath.Dir(filepath.Dir(pcap))))+":"+filepath.Base(pcap)+":"+filepath.Base(keylog))
	o := f.out[filepath.Base(filepath.Dir(filepath.Dir(filepath.Dir(pcap))))]
	if strings.HasPrefix(o, "ERR ") {
		return fmt.Errorf("tshark on %s: exit status 2: %s", pcap, o[4:])
	}
	_, err := io.WriteString(w, o)
	return err
}

func cell(t *testing.T, run, name string, files ...string) {
	t.Helper()
	d := filepath.Join(run, name, "http3")
	must(t, os.MkdirAll(filepath.Join(d, "sim"), 0o755))
	for _, f := range files {
		must(t, os.WriteFile(filepath.Join(d, f), []byte("x"), 0o644))
	}
}

func TestFromRunSkipsAndReports(t *testing.T) {
	run := t.TempDir()
	cell(t, run, "a_good", DecryptedTrace)
	cell(t, run, "b_raw", RawTrace, KeyLog)
	cell(t, run, "c_notrace", RawTrace) // no keys.log: nothing decrypts it
	cell(t, run, "d_noheaders", DecryptedTrace)
	cell(t, run, "e_nostream", DecryptedTrace)
	headers := line("5", "", "", "1", "443", "0", "0", "False", "", "False", "", "0103000 0d1")
	headers = strings.Replace(headers, " ", "", 1)
	ft := &fakeTshark{out: map[string]string{
		"a_good":      headers,
		"b_raw":       headers,
		"d_noheaders": line("5", "", "", "1", "443", "0", "2", "False", "", "False", "", "023fe11f"),
		"e_nostream":  "",
	}}
	res, err := FromRun(context.Background(), ft, run)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, r := range res {
		got[r.Name] = fmt.Sprintf("%d seeds; %s", len(r.Seeds), r.Skipped)
	}
	want := map[string]string{
		"a_good":      "1 seeds; ",
		"b_raw":       "1 seeds; ",
		"c_notrace":   "0 seeds; no decrypted trace (no sim/trace_node_right.pcapng, nor sim/trace_node_right.pcap with keys.log)",
		"d_noheaders": "0 seeds; no HEADERS field sections",
		"e_nostream":  "0 seeds; no decrypted STREAM frames in trace_node_right.pcapng",
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %v\nwant %v", got, want)
	}
	if !reflect.DeepEqual(ft.calls[:2], []string{"a_good:trace_node_right.pcapng:.", "b_raw:trace_node_right.pcap:keys.log"}) {
		t.Errorf("tshark calls %v (one per cell, the raw trace with its key log)", ft.calls)
	}

	// A journal: cells without an http3 result are still running.
	must(t, os.WriteFile(filepath.Join(run, "results.jsonl"), []byte(`{"server":"a","client":"good","case":"http3","result":"succeeded"}`+"\n"), 0o644))
	res, err = FromRun(context.Background(), ft, run)
	if err != nil || len(res[0].Seeds) != 1 || !strings.Contains(res[1].Skipped, "not finished") {
		t.Errorf("with results.jsonl: %+v %v", res, err)
	}
}

func TestFromRunTsharkErrorNamesTheFile(t *testing.T) {
	run := t.TempDir()
	cell(t, run, "a_good", DecryptedTrace)
	cell(t, run, "b_bad", DecryptedTrace)
	ft := &fakeTshark{out: map[string]string{"b_bad": "ERR tshark: The file appears to be damaged or corrupt."}}
	_, err := FromRun(context.Background(), ft, run)
	bad := filepath.Join(run, "b_bad", "http3", DecryptedTrace)
	if err == nil || !errors.Is(err, ErrBadInput) || !strings.HasPrefix(err.Error(), bad+": ") || !strings.Contains(err.Error(), "damaged") {
		t.Errorf("got %v, want a bad-input error starting with %s", err, bad)
	}
	// Unparseable tshark output is an error naming the file too.
	ft.out["b_bad"] = "garbage\n"
	if _, err = FromRun(context.Background(), ft, run); err == nil || !strings.HasPrefix(err.Error(), bad+": ") || strings.Count(err.Error(), bad) != 1 {
		t.Errorf("bad output: %v", err)
	}
}

// testdata/h3-aioquic.pcapng: the first 30 packets of an aioquic server / aioquic client http3
// cell (trace_node_right.pcapng, secrets embedded), cut with `editcap -r in out 1-30`: both
// control streams, both QPACK encoder streams, three requests and the start of their responses.
const fixture = "testdata/h3-aioquic.pcapng"

func TestExtractRealTrace(t *testing.T) {
	r := tsharktest.Need(t)
	run := t.TempDir()
	cell(t, run, "aioquic_aioquic")
	b, err := os.ReadFile(fixture)
	must(t, err)
	must(t, os.WriteFile(filepath.Join(run, "aioquic_aioquic", "http3", DecryptedTrace), b, 0o644))
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	res, err := FromRun(ctx, r, run)
	if err != nil {
		t.Fatal(err)
	}
	c := res[0]
	if c.Skipped != "" || len(c.Seeds) != 2 {
		t.Fatalf("skipped %q, %d seeds", c.Skipped, len(c.Seeds))
	}
	st := c.Stats
	if st.Streams != 12 || st.Connections != 1 || st.Gaps != 0 || st.Sections != [2]int{3, 3} || st.EncoderBytes != [2]int{28, 3} {
		t.Errorf("stats %+v", st)
	}
	c2s, s2c := c.Seeds[0], c.Seeds[1]
	// aioquic announces QPACK_MAX_TABLE_CAPACITY 4096 and QPACK_BLOCKED_STREAMS 16 both ways.
	if c2s.Dir != ToServer || c2s.Capacity != 4096 || c2s.MaxBlocked != 16 || s2c.Capacity != 4096 || s2c.MaxBlocked != 16 {
		t.Errorf("preambles: c2s %+v s2c %+v", c2s, s2c)
	}
	// The server's responses: Set Dynamic Table Capacity 4096 on the encoder stream first, then the
	// three response header sections on request streams 0, 4, 8 (records 4, 8, 12).
	want := unhex(t, `1000 10 00
		0000000000000000 00000003 3fe11f
		0000000000000004 00000008 0000d954836c2207
		0000000000000008 00000009 0000d954840804d03f
		000000000000000c 00000009 0000d954846c220001`)
	if got := s2c.Encode(); !bytes.Equal(got, want) {
		t.Errorf("s2c seed:\n got %x\nwant %x", got, want)
	}
	var ids []uint64
	for _, r := range c2s.Records {
		ids = append(ids, r.StreamID)
	}
	if !reflect.DeepEqual(ids, []uint64{0, 0, 4, 8, 12}) {
		t.Errorf("c2s record stream ids %v", ids)
	}
	if c2s.Name("aioquic_aioquic") != "trace-aioquic_aioquic-c2s-d2399416" {
		t.Errorf("c2s name %s", c2s.Name("aioquic_aioquic"))
	}

	// nghttp3-h3-conn: a client fed the server's streams, a server fed the client's, both read back as
	// the harness reads them. The fixture ends inside the responses: the client's request streams stop
	// without FIN (but stream 0's 5 KiB response, complete), and it is capped to max_len; the server
	// gets the three requests whole, with FIN.
	if c.H3ConnErr != nil || len(c.H3Conn) != 2 {
		t.Fatalf("h3-conn: %v, %d seeds", c.H3ConnErr, len(c.H3Conn))
	}
	cl, sv := c.H3Conn[0], c.H3Conn[1]
	for _, s := range c.H3Conn {
		if s.Setup.MaxTableCapacity != 4096 || s.Setup.BlockedStreams != 16 || s.Setup.EncoderTableCapacity != 4096 || s.NoSettings {
			t.Errorf("%s setup %+v", s.Side, s.Setup)
		}
	}
	rc, err := replayH3Conn(cl.Encode())
	if err != nil {
		t.Fatalf("client seed: %v", err)
	}
	rs, err := replayH3Conn(sv.Encode())
	if err != nil {
		t.Fatalf("server seed: %v", err)
	}
	if len(cl.Encode()) > H3ConnMaxLen || cl.Cut != 1 || !rc.fed[0].fin || rc.fed[4].fin || rc.fed[8].fin || cl.Dropped != 2 {
		t.Errorf("client: %d bytes, cut %d at %d, fin 0/4/8: %v %v %v, dropped %d", len(cl.Encode()), cl.Cut, cl.Cap, rc.fed[0].fin, rc.fed[4].fin, rc.fed[8].fin, cl.Dropped)
	}
	// aioquic's server control stream: SETTINGS (capacity 4096, blocked 16, CONNECT protocol, a reserved one).
	if got := rc.fed[3]; got == nil || !bytes.Equal(got.data, unhex(t, "00 04 09 01 5000 07 10 08 01 21 01")) {
		t.Errorf("client: control stream %+v", got)
	}
	var fins []uint64
	for id, f := range rs.fed {
		if f.fin {
			fins = append(fins, id)
		}
	}
	sort.Slice(fins, func(i, j int) bool { return fins[i] < fins[j] })
	if !reflect.DeepEqual(fins, []uint64{0, 4, 8}) || len(rs.fed) != 6 || sv.Cap != -1 || len(rs.fed[6].data) != 1+28 {
		t.Errorf("server: streams with FIN %v, %d streams, cap %d, encoder stream %+v", fins, len(rs.fed), sv.Cap, rs.fed[6])
	}

	// The same trace damaged (a block length smashed): one line naming the file.
	bad := append([]byte(nil), b...)
	smashBlock(t, bad, 12)
	badFile := filepath.Join(run, "aioquic_aioquic", "http3", DecryptedTrace)
	must(t, os.WriteFile(badFile, bad, 0o644))
	_, err = FromRun(ctx, r, run)
	if err == nil || !errors.Is(err, ErrBadInput) || !strings.HasPrefix(err.Error(), badFile+": ") ||
		!strings.Contains(err.Error(), "damaged or corrupt") || strings.Contains(err.Error(), "\n") {
		t.Errorf("damaged trace: %v", err)
	}
}

// smashBlock sets the total length of the n-th Enhanced Packet Block of a pcapng to an absurd value.
func smashBlock(t *testing.T, b []byte, n int) {
	t.Helper()
	le := func(p []byte) uint32 { return uint32(p[0]) | uint32(p[1])<<8 | uint32(p[2])<<16 | uint32(p[3])<<24 }
	for i, k := 0, 0; i+8 <= len(b); i += int(le(b[i+4:])) {
		if le(b[i:]) == 6 {
			if k++; k == n {
				b[i+4], b[i+5], b[i+6], b[i+7] = 0xf0, 0xff, 0xff, 0xff
				return
			}
		}
		if le(b[i+4:]) == 0 {
			break
		}
	}
	t.Fatalf("no enhanced packet block %d", n)
}

// A cell whose trace breaks a QUIC rule (bytes beyond a FIN) still gives its QPACK seeds; its
// nghttp3-h3-conn seeds are refused with an error naming the cell.
func TestFromRunRejectsH3ConnForABrokenTrace(t *testing.T) {
	run := t.TempDir()
	cell(t, run, "a_good", DecryptedTrace)
	cell(t, run, "b_afterfin", DecryptedTrace)
	headers := line("5", "", "", "1", "443", "0", "0", "False", "", "False", "", "0103000 0d1")
	headers = strings.Replace(headers, " ", "", 1)
	afterFin := line("5", "", "", "1", "443", "0", "0", "False", "", "False", "", "0103000 0d1", "True") +
		line("6", "", "", "1", "443", "0", "0", "True", "5", "False", "", "00", "False")
	afterFin = strings.Replace(afterFin, " ", "", 1)
	ft := &fakeTshark{out: map[string]string{"a_good": headers, "b_afterfin": afterFin}}
	res, err := FromRun(context.Background(), ft, run)
	if err != nil {
		t.Fatal(err)
	}
	if res[0].H3ConnErr != nil || len(res[0].H3Conn) != 1 || res[0].H3Conn[0].Side != SideServer {
		t.Errorf("a_good: %v %+v", res[0].H3ConnErr, res[0].H3Conn)
	}
	b := res[1]
	if len(b.Seeds) != 1 || b.H3Conn != nil || b.H3ConnErr == nil ||
		b.H3ConnErr.Error() != "b_afterfin: nghttp3-h3-conn: conn 0 c2s stream 0: data up to offset 6 after FIN at 5 (frame 6)" {
		t.Errorf("b_afterfin: %d QPACK seeds, h3-conn %v / %v", len(b.Seeds), b.H3Conn, b.H3ConnErr)
	}
}
