package wtsuite

import (
	"fmt"
	"hash/fnv"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"

	"github.com/wirelab/wirelab/internal/jsonfile"
	"github.com/wirelab/wirelab/internal/quicinterop"
)

// Inputs are what one repetition of a case gives its endpoints, drawn from the repetition's
// seed, kept in the cell's folder (InputsFile) so that its stored evidence is judged again the
// same way.
type Inputs struct {
	Endpoint        string   `json:"endpoint"` // the session's path: /www/<endpoint>/, /downloads/<endpoint>/
	ClientProtocols []string `json:"client_protocols"`
	ServerProtocols []string `json:"server_protocols"`
	Files           []string `json:"files"` // names, in the source folder of the side that answers
}

// InputsFile is where a cell keeps its Inputs.
const InputsFile = "webtransport.json"

// Folders of a cell (compose/lab.yml mounts them): what each side serves and saves.
const (
	serverWWW       = "www"
	clientWWW       = "www-client"
	clientDownloads = "downloads"
	serverDownloads = "downloads-server"
)

// SourceDir is the folder the case's files are served from: the server's www in *-receive, the
// client's in *-send.
func (c *Case) SourceDir(cell string) string {
	if c.Direction == "send" {
		return filepath.Join(cell, clientWWW)
	}
	return filepath.Join(cell, serverWWW)
}

// DownloadDir is where the requester saves them.
func (c *Case) DownloadDir(cell string) string {
	if c.Direction == "send" {
		return filepath.Join(cell, serverDownloads)
	}
	return filepath.Join(cell, clientDownloads)
}

// MakeInputs draws the repetition's endpoint, protocols and files and writes them into cell: the
// endpoint's folder on both sides (a server finds its endpoints by the folders of /www), the
// files in the answering side's folder. The handshake gives each side five protocols, two of
// them shared and in swapped order (upstream's handshake), so only the client's preference
// decides the choice.
func MakeInputs(cell string, c *Case, seed uint64) (Inputs, error) {
	h := fnv.New64a()
	fmt.Fprintf(h, "%d/%s", seed, c.Name)
	rng := rand.New(rand.NewPCG(h.Sum64(), seed))
	in := Inputs{Endpoint: slug(rng)}
	for _, d := range []string{serverWWW, clientWWW} {
		if err := os.MkdirAll(filepath.Join(cell, d, in.Endpoint), 0o755); err != nil {
			return in, err
		}
	}
	if c.Stream == "" {
		client, server := make([]string, 5), make([]string, 5)
		for i := range 5 {
			client[i], server[i] = slug(rng), slug(rng)
		}
		pos := rng.Perm(5)[:2]
		if pos[0] > pos[1] {
			pos[0], pos[1] = pos[1], pos[0]
		}
		shared := []string{slug(rng), slug(rng)}
		client[pos[0]], client[pos[1]] = shared[0], shared[1]
		server[pos[0]], server[pos[1]] = shared[1], shared[0]
		in.ClientProtocols, in.ServerProtocols = client, server
	} else {
		p := slug(rng)
		in.ClientProtocols, in.ServerProtocols = []string{p}, []string{p}
		names, err := quicinterop.GenerateFiles(filepath.Join(c.SourceDir(cell), in.Endpoint), &quicinterop.Case{Name: c.Name, FileSizes: c.FileSizes}, seed)
		if err != nil {
			return in, err
		}
		in.Files = names
	}
	return in, jsonfile.Write(filepath.Join(cell, InputsFile), in)
}

// ReadInputs reads a cell's Inputs back.
func ReadInputs(cell string) (Inputs, error) {
	var in Inputs
	err := jsonfile.Read(filepath.Join(cell, InputsFile), &in)
	return in, err
}

// Requests are REQUESTS for the client and for the server: the client gets URLs (the endpoint
// alone when the server requests, so that it opens the session), the server endpoint/file paths.
func (c *Case) Requests(in Inputs) (client, server string) {
	base := "https://server4:443/" + in.Endpoint
	if c.Stream == "" || c.Direction == "send" {
		var paths []string
		for _, f := range in.Files {
			paths = append(paths, in.Endpoint+"/"+f)
		}
		return base, strings.Join(paths, " ")
	}
	var urls []string
	for _, f := range in.Files {
		urls = append(urls, base+"/"+f)
	}
	return strings.Join(urls, " "), ""
}

// slug is a random name of 10 lowercase letters, as upstream's files are named (a failure's
// signature reads such names as ids, internal/matrix).
func slug(rng *rand.Rand) string {
	b := make([]byte, 10)
	for i := range b {
		b[i] = 'a' + byte(rng.IntN(26))
	}
	return string(b)
}
