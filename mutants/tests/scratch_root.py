"""Where the tests of tlbf mutate and tlbf grade make their scratch folders:
under /dev/shm where it is a tmpfs this user can write with NEEDED bytes
free, under /tmp otherwise, or under $TLBF_TEST_SCRATCH when that is set.
Why, and what it saves: docs/testing.md, "Scratch on a tmpfs". Each is a
short path, as the Unix sockets of the served mutants need (at most 107
bytes).
"""
import os

NEEDED = 4 << 30  # over three times what two Rust gradings hold at once (about 600 MB each)


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
