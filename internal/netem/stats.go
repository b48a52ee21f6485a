package netem

// DropCounts counts dropped packets by cause.
type DropCounts struct {
	Loss      uint64 `json:"loss"`
	GELoss    uint64 `json:"ge_loss"`
	Queue     uint64 `json:"queue"`
	Blackhole uint64 `json:"blackhole"`
	Droplist  uint64 `json:"droplist"`
	NAT       uint64 `json:"nat"`
}

// Total is the number of dropped packets over all causes.
func (d DropCounts) Total() uint64 {
	return d.Loss + d.GELoss + d.Queue + d.Blackhole + d.Droplist + d.NAT
}

func (d *DropCounts) add(c DropCause) {
	switch c {
	case DropLoss:
		d.Loss++
	case DropGELoss:
		d.GELoss++
	case DropQueue:
		d.Queue++
	case DropBlackhole:
		d.Blackhole++
	case DropDroplist:
		d.Droplist++
	case DropNAT:
		d.NAT++
	}
}

// LinkStats are the counters of one direction. "Out" counts packets the
// engine scheduled for release (duplicates included), so
// PacketsOut == PacketsIn - Dropped.Total() + Duplicated.
type LinkStats struct {
	PacketsIn  uint64     `json:"packets_in"`
	PacketsOut uint64     `json:"packets_out"`
	Dropped    DropCounts `json:"dropped"`
	Corrupted  uint64     `json:"corrupted"`
	Duplicated uint64     `json:"duplicated"`
	Reordered  uint64     `json:"reordered"` // sent ahead by the reorder impairment
	// OutOfOrder counts originals released before a packet that arrived earlier in this
	// direction, whatever sent them ahead: the reorder impairment or jitter with jitter_reorder.
	OutOfOrder      uint64 `json:"out_of_order"`
	CEMarked        uint64 `json:"ce_marked"`
	MaxQueuePackets int    `json:"max_queue_packets"`
	MaxQueueBytes   int    `json:"max_queue_bytes"`
	// BytesOut is the IP bytes scheduled for release; divided by the run
	// time it gives the achieved rate.
	BytesOut uint64 `json:"bytes_out"`
}

// Stats is the JSON report of a run.
type Stats struct {
	Profile string `json:"profile"`
	Seed    uint64 `json:"seed"`
	Phase   string `json:"phase"`
	Rebinds int    `json:"rebinds"`
	// Clock is the run time of the last packet the engine decided: rebindings and schedule
	// phases take effect when a packet reaches the engine at or after their time.
	Clock    float64   `json:"engine_seconds"`
	ToServer LinkStats `json:"to_server"`
	ToClient LinkStats `json:"to_client"`
}
