package quicfuzz

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/binary"
	"math/big"
	"net"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	quicgo "github.com/quic-go/quic-go"
	"github.com/wirelab/wirelab/internal/quicvarint"
	xquic "golang.org/x/net/quic"
)

// Both targets: the fuzz input decides a client's first Initial packet (Decode); it is
// protected with the Initial keys of a fresh Destination Connection ID and delivered from a
// fresh client address to a server that lives as long as the fuzz worker; the server's answer
// is opened with the server Initial keys and judged by the oracle (Expectation, Check).

const alpn = "wirelab-fuzz"

// The client's Source Connection ID, which the ClientHello's initial_source_connection_id
// transport parameter repeats (RFC 9000 §7.3), so one ClientHello serves every input.
var clientSCID = []byte{0x5c, 0x1d, 0xfe, 0xed, 0xca, 0xfe, 0xf0, 0x0d}

var (
	chOnce  sync.Once
	chBytes []byte
)

// clientHello is a ClientHello from crypto/tls's QUIC client: X25519 only, so that it fits
// one packet with room for frames, and the transport parameters a client must send.
func clientHello(t testing.TB) []byte {
	chOnce.Do(func() {
		var tp []byte
		param := func(id uint64, v []byte) {
			tp = append(quicvarint.Append(quicvarint.Append(tp, id), uint64(len(v))), v...)
		}
		num := func(id, v uint64) { param(id, quicvarint.Append(nil, v)) }
		param(0x0f, clientSCID) // initial_source_connection_id
		num(0x04, 1<<20)        // initial_max_data
		num(0x05, 1<<18)        // initial_max_stream_data_bidi_local
		num(0x06, 1<<18)        // initial_max_stream_data_bidi_remote
		num(0x07, 1<<18)        // initial_max_stream_data_uni
		num(0x08, 100)          // initial_max_streams_bidi
		num(0x09, 100)          // initial_max_streams_uni
		num(0x20, 1200)         // max_datagram_frame_size (RFC 9221)
		qc := tls.QUICClient(&tls.QUICConfig{TLSConfig: &tls.Config{
			ServerName: "wirelab.test", NextProtos: []string{alpn}, InsecureSkipVerify: true,
			MinVersion: tls.VersionTLS13, CurvePreferences: []tls.CurveID{tls.X25519},
		}})
		qc.SetTransportParameters(tp)
		if err := qc.Start(context.Background()); err != nil {
			panic(err)
		}
		for e := qc.NextEvent(); e.Kind != tls.QUICNoEvent; e = qc.NextEvent() {
			if e.Kind == tls.QUICWriteData && e.Level == tls.QUICEncryptionLevelInitial {
				chBytes = append(chBytes, e.Data...)
			}
		}
	})
	if len(chBytes) == 0 || len(chBytes) > 600 {
		t.Fatalf("ClientHello of %d bytes", len(chBytes))
	}
	return chBytes
}

func serverTLS() *tls.Config {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		panic(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "wirelab.test"}, DNSNames: []string{"wirelab.test"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(24 * time.Hour),
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		panic(err)
	}
	return &tls.Config{Certificates: []tls.Certificate{{Certificate: [][]byte{der}, PrivateKey: key}},
		NextProtos: []string{alpn}, MinVersion: tls.VersionTLS13}
}

// server is one library's server on an in-memory PacketConn, shared by all inputs of a process.
type server struct {
	name string
	pc   *PacketConn
	tol  Tolerance
}

var (
	quicGoOnce, xnetOnce sync.Once
	quicGoSrv, xnetSrv   *server
)

// Finding F1 (this target; reproducer testdata/fuzz/FuzzQuicGoInitial/finding-F1-new-token):
// quic-go v0.65.0 closes with FRAME_ENCODING_ERROR (0x07, "... not allowed at encryption level
// Initial") when an Initial packet carries a frame type RFC 9000 Table 3 does not permit there;
// §12.4 requires PROTOCOL_VIOLATION (0x0a). (internal/wire/frame_parser.go ParseType.) x/net/quic
// sends PROTOCOL_VIOLATION. TestQuicGoFindingF1 pins it; only this code for only such frames is
// accepted from quic-go.
// Finding F3 (this target; reproducer testdata/fuzz/FuzzQuicGoInitial/finding-F3-bad-transport-parameters):
// when the ClientHello's quic_transport_parameters extension is badly formatted (a parameter
// length that runs past the end, a truncated varint), quic-go v0.65.0 closes with
// INTERNAL_ERROR (0x01), its reason text saying "TRANSPORT_PARAMETER_ERROR (local): ...";
// RFC 9000 §7.4 and §20.1 make that TRANSPORT_PARAMETER_ERROR (0x08), which x/net/quic sends
// (and quic-go too, for some other damage). The parse error comes back to quic-go through
// crypto/tls's QUIC API and apparently loses its code on the way. TestQuicGoFindingF3 pins it;
// only INTERNAL_ERROR with that reason, and only after a damaged ClientHello, is accepted.
const findingF3 = "F3: quic-go closes with INTERNAL_ERROR, not TRANSPORT_PARAMETER_ERROR, on badly formatted client transport parameters (RFC 9000 §7.4, §20.1)"

const findingF1 = "F1: quic-go answers a frame type not permitted in Initial packets with FRAME_ENCODING_ERROR, not PROTOCOL_VIOLATION (RFC 9000 §12.4)"

// Finding F2 (this target; reproducer testdata/fuzz/FuzzXNetQuicInitial/finding-F2-long-ping):
// x/net/quic v0.62.0 picks the frame type from the first byte of the frame (conn_recv.go
// handleFrames, "switch payload[0]"), so a frame type in a longer varint than needed (PING as
// 0x40 0x01) is an unknown type to it and the connection closes with FRAME_ENCODING_ERROR
// (0x07). RFC 9000 §12.4 lets a receiver treat it as PROTOCOL_VIOLATION (0x0a) or else take it
// for its type (quic-go does: it parses the varint); the same holds for a not-permitted type
// (HANDSHAKE_DONE as 0x40 0x1e), which §12.4 makes PROTOCOL_VIOLATION. TestXNetFindingF2 pins
// it; only this code, and only when such a frame type came before, is accepted from x/net.
const findingF2 = "F2: x/net/quic answers a frame type in a longer encoding than needed with FRAME_ENCODING_ERROR (RFC 9000 §12.4: accept it, or PROTOCOL_VIOLATION)"

func quicGoServer(t testing.TB) *server {
	quicGoOnce.Do(func() {
		// The in-memory conn has no socket buffers to size: no need to say so on every run.
		os.Setenv("QUIC_GO_DISABLE_RECEIVE_BUFFER_WARNING", "true")
		pc := NewPacketConn(&net.UDPAddr{IP: net.IPv4(127, 0, 0, 1).To4(), Port: 4433})
		tr := &quicgo.Transport{Conn: pc}
		ln, err := tr.Listen(serverTLS(), &quicgo.Config{HandshakeIdleTimeout: 2 * time.Second, EnableDatagrams: true})
		if err != nil {
			panic(err)
		}
		go func() { // never reached: no input completes a handshake; closed if one does
			for {
				c, err := ln.Accept(context.Background())
				if err != nil {
					return
				}
				c.CloseWithError(0, "")
			}
		}()
		quicGoSrv = &server{name: "quic-go", pc: pc, tol: Tolerance{FrameEncodingForForbidden: findingF1, InternalForTransportParameter: findingF3}}
	})
	return quicGoSrv
}

func xnetServer(t testing.TB) *server {
	xnetOnce.Do(func() {
		pc := NewPacketConn(&net.UDPAddr{IP: net.IPv4(127, 0, 0, 1).To4(), Port: 4434})
		ep, err := xquic.NewEndpoint(pc, &xquic.Config{TLSConfig: serverTLS(), HandshakeTimeout: 2 * time.Second})
		if err != nil {
			panic(err)
		}
		go func() {
			for {
				c, err := ep.Accept(context.Background())
				if err != nil {
					return
				}
				c.Abort(nil)
			}
		}()
		// x/net/quic does not implement RFC 9221: DATAGRAM is an unknown frame type to it.
		xnetSrv = &server{name: "x/net/quic", pc: pc, tol: Tolerance{NoDatagramSupport: true, FrameEncodingForLongType: findingF2}}
	})
	return xnetSrv
}

var exchanges atomic.Uint64

// Exchange sends the packet data decodes to and returns the oracle's expectation, the reply and
// the frames' names.
func (s *server) exchange(t testing.TB, data []byte, force *Expect) (Expect, *Reply, string) {
	pkt := Decode(data, clientHello(t))
	n := exchanges.Add(1)
	dcid := make([]byte, pkt.DCIDLen) // unique per exchange in this process
	binary.BigEndian.PutUint64(dcid, n)
	for i := 8; i < len(dcid); i++ {
		dcid[i] = byte(i)
	}
	// 4-byte IPv4: x/net/quic v0.62.0 over a net.PacketConn that is not a *net.UDPConn compares
	// the datagram's peer as read ([::ffff:10.0.0.1]:1024 for net.IPv4's 16-byte form) with the
	// connection's unmapped peer (10.0.0.1:1024) and drops every packet (conn_recv.go
	// handleDatagram, "connection migration" branch).
	addr := &net.UDPAddr{IP: net.IPv4(10, byte(n>>16), byte(n>>8), byte(n)).To4(), Port: 1024 + int(n>>24)%60000}
	replies := s.pc.Subscribe(addr)
	defer s.pc.Unsubscribe(addr)
	clientKeys := NewInitialKeys(dcid, false)
	ip := &Initial{DCID: dcid, SCID: clientSCID, Token: pkt.Token, PN: pkt.PN, PNLen: pkt.PNLen, Payload: pkt.Payload(), PadTo: 1200}
	s.pc.Deliver(ip.Seal(clientKeys), addr)
	// Afterwards the client closes (CONNECTION_CLOSE, NO_ERROR, in its next Initial): a
	// connection left to its handshake timeout would go on retransmitting its flight in the
	// background, costing time and adding coverage from earlier inputs to later ones.
	defer func() {
		bye := &Initial{DCID: dcid, SCID: clientSCID, PN: pkt.PN + 1, PNLen: 4, Payload: []byte{ftConnectionClose, 0, 0, 0}, PadTo: 1200}
		s.pc.Deliver(bye.Seal(clientKeys), addr)
	}()

	exp := Expectation(pkt.Frames)
	if force != nil {
		exp = *force
	}
	// How long to wait: an answer that settles the check ends the wait at once. A server
	// that answers a valid packet takes milliseconds; the generous limit only matters on a
	// loaded machine. A dropped packet (Reject) waits less; a draining server (the client
	// closed) and unchecked inputs often send nothing, and any wait for them is paid in full,
	// so they wait little: an answer after it goes unseen (missed, never misjudged).
	limit := 5 * time.Second
	switch {
	case exp.Kind == Reject:
		limit = time.Second
	case exp.MaySilence:
		limit = 100 * time.Millisecond
	case exp.Kind == Anything || exp.Kind == Draining:
		limit = 5 * time.Millisecond
	}
	serverKeys := NewInitialKeys(dcid, true)
	r := &Reply{}
	timer := time.NewTimer(limit)
	defer timer.Stop()
wait:
	for !r.Settled(exp) {
		select {
		case d := <-replies:
			r.Add(d, serverKeys)
		case <-timer.C:
			break wait
		}
	}
	names := make([]string, len(pkt.Frames))
	for i, f := range pkt.Frames {
		names[i] = f.Name
	}
	return exp, r, strings.Join(names, " ")
}

func (s *server) check(t *testing.T, data []byte) {
	exp, r, frames := s.exchange(t, data, nil)
	if err := Check(exp, r, s.tol); err != nil {
		t.Fatalf("%s: %v\nexpected: %v %x\nframes: %s\nreply: %+v", s.name, err, exp.Kind, exp.Codes, frames, *r)
	}
}

// Seed inputs. Header: byte 0 (ClientHello mode, DCID length, token, packet number length),
// byte 1 (packet number); then frames: a selector (kind) and its fields, numbers below 64 as
// one byte (see Decode and nextFrame).
func seed(h0 byte, frames ...[]byte) []byte {
	b := []byte{h0, 0}
	for _, f := range frames {
		b = append(b, f...)
	}
	return b
}

var (
	fPadding      = []byte{0, 7}
	fPing         = []byte{1}
	fAckRanges    = []byte{2, 2<<1 | 0, 20, 3, 1, 2, 1, 3, 0, 1} // largest 20, 2 ranges
	fAckECN       = []byte{2, 1<<1 | 1, 5, 0, 1, 1, 1, 2, 3}     // ACK_ECN, 1 range, ECT0/1/CE
	fCryptoExtra  = []byte{3, 0x41, 0x00, 4, 0x14, 0, 0, 0}      // offset 256, 4 bytes
	fNewToken     = []byte{4, 3, 't', 'o', 'k', 'n'}
	fStreamLen    = []byte{5, 7, 4, 5, 'h', 'e', 'l', 'l', 'o', 0} // OFF|LEN|FIN, stream 4
	fStreamOpen   = []byte{5, 0, 0, 3, 'a', 'b', 'c'}              // no LEN: to the end
	fMaxData      = []byte{6, 0x40, 0xff}
	fMaxStreamDat = []byte{7, 0, 0x41, 0}
	fMaxStreams   = []byte{8, 1, 10}
	fDataBlocked  = []byte{9, 0x41, 0}
	fStreamDBlk   = []byte{10, 4, 0x41, 0}
	fStreamsBlk   = []byte{11, 0, 3}
	fResetStream  = []byte{12, 0, 1, 0}
	fStopSending  = []byte{13, 0, 1}
	fNewCID       = []byte{14, 1, 0, 7, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24}
	fRetireCID    = []byte{15, 0}
	fPathChal     = []byte{16, 1, 2, 3, 4, 5, 6, 7, 8}
	fPathResp     = []byte{17, 8, 7, 6, 5, 4, 3, 2, 1}
	fClose        = []byte{18, 0, 0, 3, 'b', 'y', 'e'}
	fCloseApp     = []byte{19, 0x41, 0, 2, 'n', 'o'}
	fHSDone       = []byte{20}
	fDatagram     = []byte{21, 1, 4, 'd', 'g', 'r', 'm'}
	fUnknown      = []byte{22, 0x21, 2, 0xaa, 0xbb} // type 0x41
	fRaw          = []byte{23, 4, 0x40, 0x01, 0x1e, 0x00}
	fLongPing     = []byte{24, 0} // PING as 0x40 0x01
	fLongHSDone   = []byte{24, 4} // HANDSHAKE_DONE as 0x80 0x00 0x00 0x1e
)

func addSeeds(f *testing.F) {
	for _, s := range [][]byte{
		seed(CHFirst, fPing, fPadding),
		seed(CHFirst|1<<2|1<<5, fAckRanges, fPing),
		seed(CHFirst|2<<2|3<<5, fAckECN),
		seed(CHFirst, fCryptoExtra),
		seed(CHLast, []byte{3, 0, 4, 0x01, 0x00, 0xff, 0xff}), // a ClientHello header claiming 64 KiB first: the server waits
		seed(CHLast, []byte{3, 0, 4, 0x01, 0x00, 0x00, 0x10}), // one claiming 16 bytes: a TLS error
		seed(CHSplit, []byte{0x41, 0x00}, fPing),              // split at 256
		seed(CHLast|3<<2, fPing, fPadding),
		seed(CHDamaged, []byte{0x40, 0x80, 0x01}, fPing),
		append([]byte{CHFirst | 1<<4, 0, 4, 'a', 'b', 'c', 'd'}, fPing...), // with a token
		seed(CHFirst, fClose),
		seed(CHFirst, fRaw),
		seed(CHLast, fStreamLen),
		seed(CHFirst, fStreamOpen),
		seed(CHFirst, fDatagram),
		seed(CHFirst, fUnknown),
		seed(CHFirst, fLongPing),
		seed(CHFirst, fLongHSDone),
	} {
		f.Add(s)
	}
	for _, fr := range [][]byte{fNewToken, fMaxData, fMaxStreamDat, fMaxStreams, fDataBlocked, fStreamDBlk,
		fStreamsBlk, fResetStream, fStopSending, fNewCID, fRetireCID, fPathChal, fPathResp, fCloseApp, fHSDone} {
		f.Add(seed(CHFirst, fPing, fr))
	}
}

// FuzzQuicGoInitial: quic-go's server (Transport.Listen) receives the client Initial.
func FuzzQuicGoInitial(f *testing.F) {
	addSeeds(f)
	f.Fuzz(func(t *testing.T, data []byte) { quicGoServer(t).check(t, data) })
}

// FuzzXNetQuicInitial: golang.org/x/net/quic's server (NewEndpoint with a Config) receives it.
func FuzzXNetQuicInitial(f *testing.F) {
	addSeeds(f)
	f.Fuzz(func(t *testing.T, data []byte) { xnetServer(t).check(t, data) })
}
