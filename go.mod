module github.com/wirelab/wirelab

go 1.24.0

require gopkg.in/yaml.v3 v3.0.1

require (
	github.com/quic-go/qpack v0.6.0 // indirect
	github.com/quic-go/quic-go v0.59.1 // indirect
	golang.org/x/crypto v0.44.0 // indirect
	golang.org/x/net v0.47.0 // indirect
	golang.org/x/sync v0.18.0 // indirect
	golang.org/x/sys v0.38.0 // indirect
	golang.org/x/text v0.31.0 // indirect
)

tool (
	github.com/quic-go/quic-go/interop/client
	github.com/quic-go/quic-go/interop/server
)
