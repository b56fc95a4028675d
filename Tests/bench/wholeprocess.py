"""What the whole-process benchmark scripts share: one timed run of a command."""
import subprocess
import sys
import time


def timed(argv, stdin_path, stdout_path):
    """Seconds of wall time for one run of argv, stdin from and stdout to files; exits on failure."""
    with open(stdin_path, "rb") as i, open(stdout_path, "wb") as o:
        t0 = time.perf_counter()
        status = subprocess.run(argv, stdin=i, stdout=o).returncode
        t1 = time.perf_counter()
    if status != 0:
        sys.exit(f"{argv[0]} exited with status {status}")
    return t1 - t0
