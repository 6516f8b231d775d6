// rec_test.go — a Go workload of known shape for tests/cli/pprof.sh:
// direct recursion (fib), mutual recursion (even and odd, each calling
// the other), and a small function the compiler inlines (mix, into spin),
// which pprof shows as a frame of its own.  `go test -cpuprofile` writes
// its profile; the test runs until the process has used a second of CPU
// time (at most ten seconds of wall time), so that a busy machine gives
// enough samples too.
package rec

import (
	"syscall"
	"testing"
	"time"
)

//go:noinline
func fib(n int) int {
	if n < 2 {
		return n
	}
	return fib(n-1) + fib(n-2)
}

//go:noinline
func even(n int) int {
	if n == 0 {
		return spin(200)
	}
	return odd(n-1) + 1
}

//go:noinline
func odd(n int) int {
	if n == 0 {
		return spin(300)
	}
	return even(n-1) + 1
}

// small enough for the compiler to inline into spin
func mix(x int) int { return x*x ^ x>>3 }

//go:noinline
func spin(n int) int {
	s := 0
	for i := 0; i < n; i++ {
		s += mix(i + s)
	}
	return s
}

var sink int

func cpuTime() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func TestWork(t *testing.T) {
	start := time.Now()
	for cpuTime() < time.Second && time.Since(start) < 10*time.Second {
		sink += fib(22)
		for j := 0; j < 500; j++ {
			sink += even(20 + j%7)
		}
	}
}
