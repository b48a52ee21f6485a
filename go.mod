module github.com/wirelab/wirelab

go 1.26.0

require (
	github.com/quic-go/qpack v0.6.0
	golang.org/x/net v0.62.0
	golang.org/x/sys v0.49.0
	gopkg.in/yaml.v3 v3.0.1
)

require (
	github.com/quic-go/quic-go v0.65.0 // indirect
	golang.org/x/crypto v0.58.0 // indirect
	golang.org/x/sync v0.24.0 // indirect
	golang.org/x/text v0.43.0 // indirect
)

tool (
	github.com/quic-go/quic-go/interop/client
	github.com/quic-go/quic-go/interop/server
)
