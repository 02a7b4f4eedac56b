#!/usr/bin/python3
"""A case-insensitive file system for tests: FOLDER mounted at MOUNTPOINT, every name looked up
as the file systems of macOS and Windows look it up — the name as written if it exists, else the
one entry of its folder that differs from it only in case. Inode numbers are the backing files'
own (use_ino), so `Book.txt` and `BOOK.TXT` are one file to stat(2), as they are on such systems.

Usage: casefold_fs.py FOLDER MOUNTPOINT   (stays in the foreground; unmount with umount)
Debian's python3-fuse (libfuse 2); run as root, which mounts without fusermount.
"""
import errno
import os
import sys

import fuse

fuse.fuse_python_api = (0, 2)


class CaseFolding(fuse.Fuse):
    def __init__(self, backing, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.backing = backing

    def real(self, path):
        """The backing path for PATH, each component matched without regard to case."""
        current = self.backing
        for part in [p for p in path.split("/") if p]:
            exact = os.path.join(current, part)
            if os.path.lexists(exact):
                current = exact
                continue
            try:
                names = os.listdir(current)
            except OSError:
                return exact
            folded = [n for n in names if n.casefold() == part.casefold()]
            current = os.path.join(current, folded[0] if folded else part)
        return current

    def getattr(self, path):
        try:
            return os.lstat(self.real(path))
        except OSError as e:
            return -e.errno

    def readdir(self, path, offset):
        for name in [".", ".."] + os.listdir(self.real(path)):
            yield fuse.Direntry(name)

    def readlink(self, path):
        return os.readlink(self.real(path))

    def access(self, path, mode):
        if not os.access(self.real(path), mode):
            return -errno.EACCES

    def statfs(self):
        return os.statvfs(self.backing)

    def mkdir(self, path, mode):
        os.mkdir(self.real(path), mode)

    def rmdir(self, path):
        os.rmdir(self.real(path))

    def unlink(self, path):
        os.unlink(self.real(path))

    def symlink(self, target, path):
        os.symlink(target, self.real(path))

    def link(self, target, path):
        os.link(self.real(target), self.real(path))

    def rename(self, old, new):
        os.rename(self.real(old), self.real(new))

    def chmod(self, path, mode):
        os.chmod(self.real(path), mode)

    def chown(self, path, uid, gid):
        os.chown(self.real(path), uid, gid)

    def truncate(self, path, size):
        os.truncate(self.real(path), size)

    def utimens(self, path, ts_acc, ts_mod):
        os.utime(self.real(path), ns=(ts_acc.tv_sec * 10**9 + ts_acc.tv_nsec, ts_mod.tv_sec * 10**9 + ts_mod.tv_nsec))

    # Stateless file operations: each opens the backing file, as python-fuse's simple API wants.
    def open(self, path, flags):
        os.close(os.open(self.real(path), flags & ~(os.O_CREAT | os.O_TRUNC | os.O_EXCL)))
        return 0

    def create(self, path, flags, mode):
        os.close(os.open(self.real(path), flags | os.O_CREAT, mode))
        return 0

    def on_file(self, path, flags, action):
        fd = os.open(self.real(path), flags)
        try:
            return action(fd)
        finally:
            os.close(fd)

    def read(self, path, size, offset):
        return self.on_file(path, os.O_RDONLY, lambda fd: os.pread(fd, size, offset))

    def write(self, path, data, offset):
        return self.on_file(path, os.O_WRONLY, lambda fd: os.pwrite(fd, data, offset))

    def fsync(self, path, datasync):
        self.on_file(path, os.O_RDONLY, os.fsync)

    def flush(self, path):
        return 0

    def release(self, path, flags):
        return 0


def main():
    backing, mountpoint = sys.argv[1], sys.argv[2]
    server = CaseFolding(os.path.abspath(backing), version="casefold_fs", usage=__doc__, dash_s_do="setsingle")
    server.fuse_args.mountpoint = mountpoint
    server.fuse_args.setmod("foreground")
    server.fuse_args.add("use_ino")
    server.multithreaded = False
    server.main()


if __name__ == "__main__":
    main()
