package quiccheck

import "github.com/wirelab/wirelab/internal/quictrace"

var resumption = Check{
	Name:        "resumption",
	Requirement: "RFC 9001 §4.5, RFC 8446 §4.2.11",
	Reads:       LongHeaders,
	Description: "2 handshakes: the first sends a Certificate, the second's ServerHello accepts a PSK and no Certificate follows",
	Run:         checkResumption,
}

// checkResumption: 2 handshakes; the first sends a Certificate; the second is a resumed one: its
// ServerHello accepts a PSK (RFC 8446 §4.2.11) and its decrypted Handshake flight has no
// Certificate (RFC 9001 §4.5).
func checkResumption(t *quictrace.Trace) Result {
	const name = "resumption"
	if r, ok := checkVersionAndCount(name, t, 2); !ok {
		return r
	}
	hs := t.Handshakes()
	_, by := serverTLSByHandshake(t)
	if !hasTLS(by[hs[0]], quictrace.TLSCertificate) {
		return fail(name, "no Certificate in the first handshake (not decrypted?)")
	}
	if r, ok := resumedWithPSK(name, by[hs[1]]); !ok {
		return r
	}
	return pass(name, "2 handshakes, Certificate only in the first, the second resumed with a PSK")
}

// resumedWithPSK: the handshake's ServerHello carries pre_shared_key, its EncryptedExtensions
// was decrypted (so a missing Certificate is evidence, not a missing key) and no Certificate
// follows.
func resumedWithPSK(name string, ms []quictrace.TLSMessage) (Result, bool) {
	sh, ok := firstTLS(ms, quictrace.TLSServerHello)
	switch {
	case !ok:
		return fail(name, "no ServerHello in the second handshake"), false
	case !sh.HasExtension(quictrace.TLSExtPreSharedKey):
		return fail(name, "the second ServerHello has no pre_shared_key extension: a full handshake, not a resumed one"), false
	case !hasTLS(ms, quictrace.TLSEncryptedExtensions):
		return fail(name, "the second handshake's Handshake packets were not decrypted (no EncryptedExtensions): cannot tell whether a Certificate was sent"), false
	case hasTLS(ms, quictrace.TLSCertificate):
		return fail(name, "the second handshake carries a Certificate: the session was not resumed"), false
	}
	return Result{}, true
}
