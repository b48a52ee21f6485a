package main

import (
	"os"
	"os/exec"
	"syscall"
	"time"
)

// process is a browser run in its own process group: browsers fork helpers (renderer, GPU,
// network, socket processes) that must go with it.
type process struct {
	cmd    *exec.Cmd
	exited chan error
	// collect, when set, moves what the browser left outside /logs into it, once it is gone.
	collect func()
}

// startProcess runs cmd with its output in logPath.
func startProcess(cmd *exec.Cmd, logPath string) (*process, error) {
	out, err := os.Create(logPath)
	if err != nil {
		return nil, err
	}
	cmd.Stdout, cmd.Stderr = out, out
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		out.Close()
		return nil, err
	}
	p := &process{cmd: cmd, exited: make(chan error, 1)}
	go func() {
		err := cmd.Wait()
		out.Close()
		p.exited <- err
		close(p.exited)
	}()
	return p, nil
}

func (p *process) pid() int { return p.cmd.Process.Pid }

// stop interrupts the browser, waits for its exit up to grace, then kills what is left of the
// group. Only the browser gets the signal, and it is SIGINT: the browser then shuts its helpers
// down itself after they wrote out their logs (Chromium's network service writes the NetLog;
// on SIGTERM or killed, the file is left unterminated).
func (p *process) stop(grace time.Duration) {
	pgid := p.cmd.Process.Pid
	p.cmd.Process.Signal(syscall.SIGINT) //nolint:errcheck // gone already is fine
	select {
	case <-p.exited:
	case <-time.After(grace):
	}
	syscall.Kill(-pgid, syscall.SIGKILL) //nolint:errcheck // helpers that outlived the browser
	if p.collect != nil {
		p.collect()
	}
}
