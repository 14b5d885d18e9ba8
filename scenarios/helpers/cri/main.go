// cri: a small CRI v1 client, the test driver of the containerd scenario
// (scenarios/oci/*-containerd-cri). Debian 12 packages no CRI client;
// this one speaks the few RuntimeService calls a pod's life needs,
// through a raw-bytes gRPC codec and hand-encoded messages (wire.go).
//
//	cri -socket PATH version
//	cri -socket PATH run [options] IMAGE CMD...
//
// run makes a hostNetwork pod on a runtime handler, one container in it,
// starts it, waits for its exit, prints its log (the CRI log file, as
// kubectl logs would) and stops and removes the pod, whatever failed.
// It exits with the container's status, or 125 when a call failed
// (the call and the runtime's message on standard error).
package main

import (
	"bufio"
	"context"
	"flag"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"deps/grpc"
)

const service = "/runtime.v1.RuntimeService/"

// rawCodec passes the hand-encoded bytes through gRPC unchanged.
type rawCodec struct{}

func (rawCodec) Marshal(v interface{}) ([]byte, error) {
	return []byte(*v.(*msg)), nil
}

func (rawCodec) Unmarshal(data []byte, v interface{}) error {
	*v.(*msg) = append(msg(nil), data...)
	return nil
}

func (rawCodec) Name() string { return "proto" }

type client struct {
	conn    *grpc.ClientConn
	timeout time.Duration
}

func dial(socket string, timeout time.Duration) (*client, error) {
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	conn, err := grpc.DialContext(ctx, "passthrough:///cri", grpc.WithInsecure(), grpc.WithBlock(),
		grpc.WithContextDialer(func(ctx context.Context, _ string) (net.Conn, error) {
			var d net.Dialer
			return d.DialContext(ctx, "unix", socket)
		}))
	if err != nil {
		return nil, fmt.Errorf("connect to %s: %w", socket, err)
	}
	return &client{conn: conn, timeout: timeout}, nil
}

func (c *client) call(method string, req msg) (fields, error) {
	ctx, cancel := context.WithTimeout(context.Background(), c.timeout)
	defer cancel()
	var resp msg
	if err := c.conn.Invoke(ctx, service+method, &req, &resp, grpc.ForceCodec(rawCodec{})); err != nil {
		return nil, fmt.Errorf("%s: %w", method, err)
	}
	f, err := decode(resp)
	if err != nil {
		return nil, fmt.Errorf("%s: response: %w", method, err)
	}
	return f, nil
}

// kvFlag collects repeated KEY=VALUE options.
type kvFlag map[string]string

func (kv kvFlag) String() string { return fmt.Sprint(map[string]string(kv)) }

func (kv kvFlag) Set(s string) error {
	k, v, ok := strings.Cut(s, "=")
	if !ok || k == "" {
		return fmt.Errorf("%q is not KEY=VALUE", s)
	}
	kv[k] = v
	return nil
}

// listFlag collects a repeated option.
type listFlag []string

func (l *listFlag) String() string { return strings.Join(*l, ",") }

func (l *listFlag) Set(s string) error { *l = append(*l, s); return nil }

// CRI enum values (runtime.v1).
const (
	namespaceContainer = 1
	namespaceNode      = 2
	containerExited    = 2
)

type pod struct {
	name, handler, logDir, cgroupParent string
	annotations                         kvFlag
}

func (p *pod) config() msg {
	meta := msg(nil).str(1, p.name).str(2, p.name+"-uid").str(3, "default")
	// hostNetwork: no CNI, no bridge; a PID namespace of the container's own.
	nsopts := msg(nil).varint(1, namespaceNode).varint(2, namespaceContainer)
	linux := msg(nil).str(1, p.cgroupParent).sub(2, msg(nil).sub(1, nsopts))
	return msg(nil).sub(1, meta).str(3, p.logDir).strmap(7, p.annotations).sub(8, linux)
}

type container struct {
	name, image string
	command     []string
	annotations kvFlag
	capAdd      listFlag
	env         kvFlag
}

func (ct *container) config() msg {
	// A repeated string is one field entry per element.
	m := msg(nil).sub(1, msg(nil).str(1, ct.name)).sub(2, msg(nil).str(1, ct.image))
	for _, a := range ct.command {
		m = append(m, msg(nil).str(3, a)...)
	}
	for _, k := range sortedKeys(ct.env) {
		m = m.sub(6, msg(nil).str(1, k).str(2, ct.env[k]))
	}
	m = m.strmap(10, ct.annotations).str(11, ct.name+".log")
	caps := msg(nil)
	for _, c := range ct.capAdd {
		caps = append(caps, msg(nil).str(1, c)...)
	}
	security := msg(nil).sub(1, caps).sub(3, msg(nil).varint(2, namespaceContainer))
	return m.sub(15, msg(nil).sub(2, security))
}

func sortedKeys(kv map[string]string) []string {
	keys := make([]string, 0, len(kv))
	for k := range kv {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// runPod is the life of one pod; it returns the container's exit status.
func runPod(c *client, p *pod, ct *container, wait time.Duration) (int, error) {
	podConfig := p.config()
	resp, err := c.call("RunPodSandbox", msg(nil).sub(1, podConfig).str(2, p.handler))
	if err != nil {
		return 0, err
	}
	podID := resp.str(1)
	fmt.Fprintf(os.Stderr, "cri: pod %s on handler %q\n", short(podID), p.handler)
	defer func() {
		// Stop and remove even after a failure: nothing may outlive the run.
		for _, method := range []string{"StopPodSandbox", "RemovePodSandbox"} {
			if _, err := c.call(method, msg(nil).str(1, podID)); err != nil {
				fmt.Fprintf(os.Stderr, "cri: %v\n", err)
			}
		}
		fmt.Fprintf(os.Stderr, "cri: pod %s stopped and removed\n", short(podID))
	}()

	resp, err = c.call("CreateContainer", msg(nil).str(1, podID).sub(2, ct.config()).sub(3, podConfig))
	if err != nil {
		return 0, err
	}
	id := resp.str(1)
	if _, err := c.call("StartContainer", msg(nil).str(1, id)); err != nil {
		return 0, err
	}
	deadline := time.Now().Add(wait)
	for {
		resp, err = c.call("ContainerStatus", msg(nil).str(1, id))
		if err != nil {
			return 0, err
		}
		status, err := resp.sub(1)
		if err != nil {
			return 0, fmt.Errorf("ContainerStatus: %w", err)
		}
		if status.varint(3) == containerExited {
			code := int(int32(status.varint(7)))
			fmt.Fprintf(os.Stderr, "cri: container %s exited %d (%s)\n", short(id), code, status.str(10))
			// containerd reports the log's full path; the API, a path
			// relative to the pod's log directory.
			logPath := status.str(15)
			if !filepath.IsAbs(logPath) {
				logPath = filepath.Join(p.logDir, logPath)
			}
			if err := printLog(logPath); err != nil {
				return 0, err
			}
			return code, nil
		}
		if time.Now().After(deadline) {
			return 0, fmt.Errorf("container %s still running after %v", short(id), wait)
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// printLog prints a CRI log file's messages: each line is "TIME STREAM
// TAG MESSAGE", TAG P a partial line continued by the next one.
func printLog(path string) error {
	f, err := os.Open(path)
	if err != nil {
		return fmt.Errorf("container log: %w", err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 64*1024), 1024*1024)
	for sc.Scan() {
		parts := strings.SplitN(sc.Text(), " ", 4)
		if len(parts) < 3 {
			return fmt.Errorf("container log %s: malformed line %q", path, sc.Text())
		}
		text := ""
		if len(parts) == 4 {
			text = parts[3]
		}
		if parts[2] == "P" {
			fmt.Print(text)
		} else {
			fmt.Println(text)
		}
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("container log %s: %w", path, err)
	}
	return nil
}

func short(id string) string {
	if len(id) > 12 {
		return id[:12]
	}
	return id
}

func usage() {
	fmt.Fprintf(os.Stderr, `usage: cri -socket PATH version
       cri -socket PATH run [options] IMAGE CMD...
run: a hostNetwork pod on -handler with one container; prints its log,
stops and removes the pod; exits with the container's status, 125 when a
CRI call failed. Options:
  -handler NAME          runtime handler (default: the runtime's default)
  -name NAME             pod and container name (default cri-test)
  -log-dir DIR           the pod's log directory (absolute; required)
  -cgroup-parent PATH    the pod's parent cgroup
  -pod-annotation K=V    an annotation of the pod (repeatable)
  -annotation K=V        an annotation of the container (repeatable)
  -cap-add CAP           a capability to add (repeatable)
  -env K=V               an environment variable (repeatable)
  -wait SECONDS          how long the container may run (default 60)
`)
	os.Exit(2)
}

func main() {
	socket := flag.String("socket", "", "containerd's CRI socket")
	timeout := flag.Int("timeout", 30, "seconds each CRI call may take")
	flag.Usage = usage
	flag.Parse()
	if *socket == "" || flag.NArg() < 1 {
		usage()
	}
	c, err := dial(*socket, time.Duration(*timeout)*time.Second)
	if err != nil {
		fmt.Fprintf(os.Stderr, "cri: %v\n", err)
		os.Exit(125)
	}
	defer c.conn.Close()

	switch flag.Arg(0) {
	case "version":
		resp, err := c.call("Version", msg(nil).str(1, "v1"))
		if err != nil {
			fmt.Fprintf(os.Stderr, "cri: %v\n", err)
			os.Exit(125)
		}
		fmt.Printf("%s %s (CRI %s)\n", resp.str(2), resp.str(3), resp.str(4))
	case "run":
		os.Exit(run(c, flag.Args()[1:]))
	default:
		usage()
	}
}

func run(c *client, args []string) int {
	fs := flag.NewFlagSet("run", flag.ExitOnError)
	fs.Usage = usage
	p := &pod{annotations: kvFlag{}}
	ct := &container{annotations: kvFlag{}, env: kvFlag{}}
	fs.StringVar(&p.handler, "handler", "", "")
	fs.StringVar(&p.name, "name", "cri-test", "")
	fs.StringVar(&p.logDir, "log-dir", "", "")
	fs.StringVar(&p.cgroupParent, "cgroup-parent", "", "")
	fs.Var(p.annotations, "pod-annotation", "")
	fs.Var(ct.annotations, "annotation", "")
	fs.Var(&ct.capAdd, "cap-add", "")
	fs.Var(ct.env, "env", "")
	wait := fs.Int("wait", 60, "")
	_ = fs.Parse(args)
	if fs.NArg() < 2 || !filepath.IsAbs(p.logDir) {
		usage()
	}
	ct.name, ct.image, ct.command = p.name, fs.Arg(0), fs.Args()[1:]
	code, err := runPod(c, p, ct, time.Duration(*wait)*time.Second)
	if err != nil {
		fmt.Fprintf(os.Stderr, "cri: %v\n", err)
		return 125
	}
	return code
}
