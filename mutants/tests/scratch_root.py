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

A Rust learner's grading holds about 600 MB there at once (the reference, the
learner's copy, two job folders and their seeds), two gradings side by side
twice that: a /dev/shm with less than NEEDED free (a container's default is
64 MB) is passed over for /tmp.
"""
import os

NEEDED = 4 << 30  # bytes free on the tmpfs: over three times what two gradings hold at once


def is_roomy_writable_tmpfs(folder):
    try:
        with open("/proc/self/mounts") as mounts:
            kinds = {fields[1]: fields[2] for fields in (line.split() for line in mounts) if len(fields) > 2}
    except OSError:
        return False
    if kinds.get(folder) != "tmpfs" or not os.access(folder, os.W_OK | os.X_OK):
        return False
    room = os.statvfs(folder)
    return room.f_bavail * room.f_frsize >= NEEDED


def scratch_root():
    chosen = os.environ.get("TLBF_TEST_SCRATCH")
    if chosen:
        return chosen
    return "/dev/shm" if is_roomy_writable_tmpfs("/dev/shm") else "/tmp"
