module github.com/wirelab/wirelab

go 1.24

require gopkg.in/yaml.v3 v3.0.1

require (
	github.com/quic-go/qpack v0.6.0 // indirect
	github.com/quic-go/quic-go v0.59.1 // indirect
	golang.org/x/crypto v0.41.0 // indirect
	golang.org/x/net v0.43.0 // indirect
	golang.org/x/sync v0.16.0 // indirect
	golang.org/x/sys v0.35.0 // indirect
	golang.org/x/text v0.28.0 // indirect
)

tool (
	github.com/quic-go/quic-go/interop/client
	github.com/quic-go/quic-go/interop/server
)
