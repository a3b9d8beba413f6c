package main

import (
	"context"
	"fmt"
	"io"
	"net"
	"os/exec"
	"path/filepath"
	"runtime"
	"sync"

	"github.com/spf13/cobra"

	"github.com/procsdev/procs/compose/config"
	"github.com/procsdev/procs/compose/control"
	"github.com/procsdev/procs/compose/webui"
)

func (a *app) uiCommand() *cobra.Command {
	var noOpen bool
	var jsonOut *jsonOutput
	var listen string
	cmd := &cobra.Command{
		Use:   "ui",
		Short: "Open the web dashboard of the running procs (every process, its state, logs and terminal, live)",
		Long: `Ask the running procs to serve its web dashboard and open it in the browser.
The dashboard listens on 127.0.0.1 at a free port (or ui.port of procs.yaml);
the link carries a token that the page keeps as a cookie: it is the only way in.
--listen serves it on another address, e.g. 0.0.0.0:8080, reachable from other machines.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			sess, err := a.connect()
			if err != nil {
				return err
			}
			defer sess.close()
			c, ctx := sess.client, sess.ctx
			info, err := c.UI(ctx, control.UIRequest{Listen: listen})
			if err != nil {
				return a.clientError(err)
			}
			if info.Note != "" {
				fmt.Fprintf(a.stderr, "procs: %s\n", info.Note)
			}
			warnExposed(a.stderr, info.Addr)
			// --json is for a script or an agent: the link is in its answer.
			if !noOpen && !jsonOut.on() {
				if err := openBrowser(a.getenv("BROWSER"), info.URL, true); err != nil {
					fmt.Fprintf(a.stderr, "procs: could not open a browser (%v); open this link:\n", err)
				}
			}
			if jsonOut.on() {
				return jsonOut.print(info)
			}
			fmt.Fprintln(a.stdout, info.URL)
			return nil
		},
	}
	cmd.Flags().BoolVar(&noOpen, "no-open", false, "print the link instead of opening a browser (--json opens none either)")
	jsonOut = a.addJSONFlag(cmd, jsonOnce, "print the dashboard's address and link as JSON")
	cmd.Flags().StringVar(&listen, "listen", "", "serve on this host:port instead of 127.0.0.1 (other machines can reach it: a warning is printed)")
	return cmd
}

// dashboard starts the web dashboard of a running procs once, on demand
// (`procs up --ui` at start, `procs ui` later).
type dashboard struct {
	dir    string
	port   int
	listen string
	stderr io.Writer

	mu     sync.Mutex
	ctx    context.Context
	server *webui.Server
	client *control.Client
}

func newDashboard(ctx context.Context, cfg *config.Config, listen string, stderr io.Writer) *dashboard {
	d := &dashboard{ctx: ctx, dir: cfg.Dir, listen: listen, stderr: stderr}
	if cfg.UI != nil {
		d.port = cfg.UI.Port
	}
	return d
}

// start serves the dashboard unless it already does, and says where.
func (d *dashboard) start(_ context.Context, req control.UIRequest) (control.UIInfo, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.server != nil {
		info := control.UIInfo{URL: d.server.URL(), Addr: d.server.Addr()}
		if req.Listen != "" {
			info.Note = "the dashboard already serves on " + d.server.Addr() + "; --listen applies when procs starts it (procs up --ui --listen ...)"
		}
		return info, nil
	}
	listen := d.listen
	if req.Listen != "" {
		listen = req.Listen
	}
	client, err := control.Dial(d.dir)
	if err != nil {
		return control.UIInfo{}, err
	}
	server, err := webui.Start(d.ctx, client, webui.Options{
		Listen: listen, Port: d.port, StateDir: filepath.Join(d.dir, ".procs"),
	})
	if err != nil {
		client.Close()
		return control.UIInfo{}, err
	}
	d.server, d.client = server, client
	warnExposed(d.stderr, server.Addr())
	return control.UIInfo{URL: server.URL(), Addr: server.Addr()}, nil
}

// close stops the dashboard if it serves.
func (d *dashboard) close() {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.server != nil {
		_ = d.server.Close()
		d.client.Close()
		d.server = nil
	}
}

// warnExposed warns when the dashboard listens beyond loopback.
func warnExposed(w io.Writer, addr string) {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return
	}
	if ip := net.ParseIP(host); ip != nil && ip.IsLoopback() {
		return
	}
	fmt.Fprintf(w, "procs: warning: the web dashboard listens on %s, reachable from other machines; anyone with its link can control your processes\n", addr)
}

// openBrowser opens url with $BROWSER, else the system's opener; wait
// says whether to wait for the opener to return (a short-lived command).
func openBrowser(browser, url string, wait bool) error {
	name := browser
	if name == "" {
		switch runtime.GOOS {
		case "darwin":
			name = "open"
		case "windows":
			name = "explorer"
		default:
			name = "xdg-open"
		}
	}
	path, err := exec.LookPath(name)
	if err != nil {
		return err
	}
	cmd := exec.Command(path, url)
	if err := cmd.Start(); err != nil {
		return err
	}
	if wait {
		return cmd.Wait()
	}
	go func() { _ = cmd.Wait() }()
	return nil
}

// openRemoteDashboard asks the background procs to serve the dashboard
// (procs up -d --ui) and opens it.
func (a *app) openRemoteDashboard(ctx context.Context, c *control.Client) {
	info, err := c.UI(ctx, control.UIRequest{})
	if err != nil {
		fmt.Fprintf(a.stderr, "procs: %v\n", err)
		return
	}
	warnExposed(a.stderr, info.Addr)
	fmt.Fprintf(a.stderr, "procs: web dashboard: %s\n", info.URL)
	if err := openBrowser(a.getenv("BROWSER"), info.URL, true); err != nil {
		fmt.Fprintf(a.stderr, "procs: could not open a browser (%v); open the link above\n", err)
	}
}
