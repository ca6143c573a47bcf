/*
 * The stand-in's own check (tests/host_e2e/windows.rs builds it with x86_64-w64-mingw32-gcc and
 * runs it under Wine beside bcryptprimitives.dll): ProcessPrng fills a buffer, and an unlock of a
 * range the handle does not hold locked fails with Windows' ERROR_NOT_LOCKED (158), while a real
 * unlock succeeds and a bad handle keeps its own error. One `name=value` line per finding.
 */
#include <windows.h>
#include <stdio.h>

BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T size);

static void report(const char *name, BOOL ok)
{
    printf("%s=%lu\n", name, ok ? 0UL : GetLastError());
}

int main(int argc, char **argv)
{
    unsigned char random[32] = {0};
    int nonzero = 0;
    BOOL filled = ProcessPrng(random, sizeof random);
    for (size_t i = 0; i < sizeof random; i++)
        nonzero += random[i] != 0;
    printf("prng=%d nonzero=%d\n", filled, nonzero);

    HANDLE file = CreateFileA(argc > 1 ? argv[1] : "standin-check.tmp", GENERIC_READ | GENERIC_WRITE,
                              FILE_SHARE_READ | FILE_SHARE_WRITE, NULL, OPEN_ALWAYS, 0, NULL);
    OVERLAPPED whole = {0};
    report("lock", LockFileEx(file, LOCKFILE_EXCLUSIVE_LOCK, 0, MAXDWORD, MAXDWORD, &whole));
    report("unlock_locked", UnlockFile(file, 0, 0, MAXDWORD, MAXDWORD));
    report("unlock_again", UnlockFile(file, 0, 0, MAXDWORD, MAXDWORD));
    report("unlock_ex_again", UnlockFileEx(file, 0, MAXDWORD, MAXDWORD, &whole));
    LockFile(file, 0, 0, 10, 0);
    report("unlock_other_range", UnlockFile(file, 0, 0, 5, 0));
    report("unlock_range", UnlockFile(file, 0, 0, 10, 0));
    report("unlock_bad_handle", UnlockFile((HANDLE)0x1234, 0, 0, 10, 0));
    CloseHandle(file);
    return 0;
}
