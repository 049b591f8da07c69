"""Where the tests of tlbf mutate and tlbf grade make their scratch folders.

A grading copies the course's reference for every run and deletes it after:
the Rust class makes and removes some 300 files a run, tens of thousands in one test.
On ext4 the inode allocator then searches past the recently deleted inodes
(the kernel's time went to find_inode_bit and recently_deleted), and a Rust
learner's grading took 11.5 s on /tmp against 7.5 s on a tmpfs (December
2026, docs/testing.md "Scratch on a tmpfs"). So the tests work under
/dev/shm where it is a tmpfs this user can write, under /tmp otherwise, or
under $TLBF_TEST_SCRATCH when that is set. Each is a short path, as the
Unix sockets of the served mutants need (at most 107 bytes).
"""
import os


def is_writable_tmpfs(folder):
    try:
        with open("/proc/self/mounts") as mounts:
            kinds = {fields[1]: fields[2] for fields in (line.split() for line in mounts) if len(fields) > 2}
    except OSError:
        return False
    return kinds.get(folder) == "tmpfs" and os.access(folder, os.W_OK | os.X_OK)


def scratch_root():
    chosen = os.environ.get("TLBF_TEST_SCRATCH")
    if chosen:
        return chosen
    return "/dev/shm" if is_writable_tmpfs("/dev/shm") else "/tmp"
