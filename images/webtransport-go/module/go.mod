// The webtransport-go interop endpoints need the quic-go their release was made against
// (v0.13.0 requires quic-go v0.62; wirelab's module pins quic-go v0.65 for the QUIC suite, whose
// http3 API webtransport-go v0.13.0 does not compile against), so they are built from this
// module of their own.
module github.com/wirelab/wirelab/images/webtransport-go/module

go 1.26.0

tool (
	github.com/quic-go/webtransport-go/interop/client
	github.com/quic-go/webtransport-go/interop/server
)

require (
	github.com/dunglas/httpsfv v1.1.1 // indirect
	github.com/quic-go/qpack v0.6.0 // indirect
	github.com/quic-go/quic-go v0.62.0 // indirect
	github.com/quic-go/webtransport-go v0.13.0 // indirect
	golang.org/x/crypto v0.54.0 // indirect
	golang.org/x/net v0.56.0 // indirect
	golang.org/x/sync v0.22.0 // indirect
	golang.org/x/sys v0.47.0 // indirect
	golang.org/x/text v0.40.0 // indirect
)
