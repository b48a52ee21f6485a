package profile

// The raw schema mirrors profiles.yml. Every leaf is a pointer so that "not
// set" can be told from "set to zero" when profiles extend one another and
// references override fields. yaml tags name the keys; decode.go enforces
// that no other key appears.

type rawFile struct {
	Profiles map[string]*rawProfile `yaml:"profiles"`
}

type rawProfile struct {
	Description *text                `yaml:"description"`
	Extends     *text                `yaml:"extends"`
	Params      map[string]*rawParam `yaml:"params"`
	Both        *rawLink             `yaml:"both"`
	ToClient    *rawLink             `yaml:"to_client"`
	ToServer    *rawLink             `yaml:"to_server"`
	Rebind      *rawRebind           `yaml:"rebind"`
	Schedule    []*rawPhase          `yaml:"schedule"`
}

// rawParam is a documented short name for an override path, e.g.
// rate_to_client -> to_client.loss, so references can use upstream's names.
type rawParam struct {
	Set *text `yaml:"set"`
	Doc *text `yaml:"doc"`
}

type rawLink struct {
	Delay              *duration     `yaml:"delay"`
	Jitter             *duration     `yaml:"jitter"`
	JitterDistribution *distribution `yaml:"jitter_distribution"`
	JitterReorder      *flag         `yaml:"jitter_reorder"`
	Loss               *percent      `yaml:"loss"`
	Burst              *burstLen     `yaml:"burst"`
	LossMaxRun         *count        `yaml:"loss_max_run"`
	GilbertElliott     *rawGE        `yaml:"gilbert_elliott"`
	Droplist           *dropIndices  `yaml:"droplist"`
	Corrupt            *percent      `yaml:"corrupt"`
	CorruptWindow      *count        `yaml:"corrupt_window"`
	CorruptDeliver     *flag         `yaml:"corrupt_deliver"`
	Duplicate          *percent      `yaml:"duplicate"`
	Reorder            *rawReorder   `yaml:"reorder"`
	Rate               *rate         `yaml:"rate"`
	Queue              *queueSize    `yaml:"queue"`
	CEThreshold        *threshold    `yaml:"ce_threshold"`
	Blackhole          *rawBlackhole `yaml:"blackhole"`
}

type rawGE struct {
	P *percent `yaml:"p"`
	R *percent `yaml:"r"`
	H *percent `yaml:"h"`
	K *percent `yaml:"k"`
}

type rawReorder struct {
	Probability *percent `yaml:"probability"`
	Gap         *count   `yaml:"gap"`
}

type rawBlackhole struct {
	On        *duration     `yaml:"on"`
	Off       *duration     `yaml:"off"`
	Repeat    *count        `yaml:"repeat"`
	Direction *blackholeDir `yaml:"direction"`
}

type rawRebind struct {
	First *duration `yaml:"first"`
	Freq  *duration `yaml:"freq"`
	Port  *flag     `yaml:"port"`
	Addr  *flag     `yaml:"addr"`
}

type rawPhase struct {
	At      *duration `yaml:"at"`
	Profile *text     `yaml:"profile"`
}

// overrideRoots are the profile keys a reference may override.
var overrideRoots = []string{"both", "to_client", "to_server", "rebind"}
