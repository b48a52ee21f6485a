module github.com/wirelab/wirelab

go 1.24

require gopkg.in/yaml.v3 v3.0.1

require golang.org/x/sys v0.33.0 // indirect
