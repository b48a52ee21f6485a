package quiccheck

var handshakeCorruption = Check{
	Name:        "handshakecorruption",
	Requirement: "RFC 9000 §12.2, RFC 9002 §6",
	Reads:       LongHeaders,
	Description: "50 handshakes (distinct server SCIDs in server Initials), server Initials in version 1",
	Run:         handshakeCount("handshakecorruption", 50),
}
