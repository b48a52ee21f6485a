package quiccheck

var handshakeLoss = Check{
	Name:        "handshakeloss",
	Requirement: "RFC 9002 §6",
	Reads:       LongHeaders,
	Description: "50 handshakes (distinct server SCIDs in server Initials), server Initials in version 1",
	Run:         handshakeCount("handshakeloss", 50),
}
