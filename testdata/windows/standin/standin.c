/*
 * A stand-in bcryptprimitives.dll for running the hosts' Windows builds (Codex, Claude Code) under
 * Wine 8.0. Built by scripts/windows-programs.sh with Debian's x86_64-w64-mingw32-gcc and copied
 * beside each .exe that needs it; Wine loads it from the program's folder (WINEDLLOVERRIDES
 * "bcryptprimitives=n,b" keeps it first should a Wine ever ship its own).
 *
 * It supplies the two things Wine 8.0 lacks:
 *
 * 1. ProcessPrng, the only export the programs import from bcryptprimitives.dll (the random source
 *    of Rust's standard library and of Bun on Windows 10+). Wine 8.0 ships no bcryptprimitives.dll
 *    at all, so there is nothing of Wine's to forward to, and without this DLL the programs do not
 *    start (exit 53: "Library bcryptprimitives.dll ... not found"). Here it is RtlGenRandom
 *    (advapi32's SystemFunction036), which Wine backs with the host's random source.
 *
 * 2. ERROR_NOT_LOCKED (158) from UnlockFile/UnlockFileEx for a range this handle does not hold
 *    locked. Windows answers STATUS_RANGE_NOT_LOCKED -> 158; Wine 8.0's server answers
 *    STATUS_FILE_LOCK_CONFLICT -> ERROR_LOCK_VIOLATION (33), which its unlock gives only when none
 *    of the handle's locks has exactly this offset and length. Rust's
 *    File::unlock unlocks twice (a handle may hold a shared and an exclusive lock) and forgives only
 *    158 from the second call, so under Wine every unlock "fails" with 33. On process attach we
 *    point the main program's import address table entries for UnlockFile and UnlockFileEx (found
 *    by function name, under whatever DLL name they are imported: kernel32.dll, api-ms-win-*.dll,
 *    ...) at wrappers that turn exactly that 33 into 158 and leave every other result alone.
 *
 * Only the main .exe is patched: the programs are statically linked, and nothing else of theirs
 * unlocks files. The DLL needs no C runtime (built with -nostdlib).
 */

#include <windows.h>

/* advapi32's RtlGenRandom, exported under this name. */
BOOLEAN WINAPI SystemFunction036(PVOID buffer, ULONG length);

/* bcryptprimitives!ProcessPrng: fills the buffer with random bytes; documented never to fail. */
__declspec(dllexport) BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T size)
{
    while (size > 0) {
        ULONG chunk = size > 0x40000000 ? 0x40000000 : (ULONG)size;
        if (!SystemFunction036(data, chunk))
            return FALSE;
        data += chunk;
        size -= chunk;
    }
    return TRUE;
}

typedef BOOL(WINAPI *unlock_file_fn)(HANDLE, DWORD, DWORD, DWORD, DWORD);
typedef BOOL(WINAPI *unlock_file_ex_fn)(HANDLE, DWORD, DWORD, DWORD, LPOVERLAPPED);

/* The functions the import table pointed at before we patched it. */
static unlock_file_fn real_unlock_file;
static unlock_file_ex_fn real_unlock_file_ex;

/* After a failed unlock: Wine's "no lock with this offset and length" (33) is Windows' 158. */
static void map_not_locked(void)
{
    if (GetLastError() == ERROR_LOCK_VIOLATION)
        SetLastError(ERROR_NOT_LOCKED);
}

static BOOL WINAPI unlock_file(HANDLE file, DWORD offset_low, DWORD offset_high, DWORD count_low,
                               DWORD count_high)
{
    BOOL ok = real_unlock_file(file, offset_low, offset_high, count_low, count_high);
    if (!ok)
        map_not_locked();
    return ok;
}

static BOOL WINAPI unlock_file_ex(HANDLE file, DWORD reserved, DWORD count_low, DWORD count_high,
                                  LPOVERLAPPED overlapped)
{
    BOOL ok = real_unlock_file_ex(file, reserved, count_low, count_high, overlapped);
    if (!ok)
        map_not_locked();
    return ok;
}

static int same_name(const char *a, const char *b)
{
    while (*a && *a == *b) {
        a++;
        b++;
    }
    return *a == *b;
}

/* Replaces one import address table slot, whatever the page's protection. */
static void set_slot(ULONG_PTR *slot, ULONG_PTR value)
{
    DWORD old;
    if (VirtualProtect(slot, sizeof *slot, PAGE_READWRITE, &old)) {
        *slot = value;
        VirtualProtect(slot, sizeof *slot, old, &old);
    }
}

/* Walks the main program's imports and sends its UnlockFile/UnlockFileEx through the wrappers. */
static void patch_main_module(void)
{
    BYTE *base = (BYTE *)GetModuleHandleW(NULL);
    IMAGE_NT_HEADERS *nt = (IMAGE_NT_HEADERS *)(base + ((IMAGE_DOS_HEADER *)base)->e_lfanew);
    IMAGE_DATA_DIRECTORY dir = nt->OptionalHeader.DataDirectory[IMAGE_DIRECTORY_ENTRY_IMPORT];
    if (dir.VirtualAddress == 0)
        return;
    for (IMAGE_IMPORT_DESCRIPTOR *dll = (IMAGE_IMPORT_DESCRIPTOR *)(base + dir.VirtualAddress); dll->Name;
         dll++) {
        /* The names are in the lookup table; the address table beside it holds the bound addresses. */
        if (!dll->OriginalFirstThunk)
            continue;
        IMAGE_THUNK_DATA *names = (IMAGE_THUNK_DATA *)(base + dll->OriginalFirstThunk);
        IMAGE_THUNK_DATA *slots = (IMAGE_THUNK_DATA *)(base + dll->FirstThunk);
        for (; names->u1.AddressOfData; names++, slots++) {
            if (IMAGE_SNAP_BY_ORDINAL(names->u1.Ordinal))
                continue;
            const char *name = (const char *)((IMAGE_IMPORT_BY_NAME *)(base + names->u1.AddressOfData))->Name;
            if (same_name(name, "UnlockFile")) {
                if (!real_unlock_file)
                    real_unlock_file = (unlock_file_fn)slots->u1.Function;
                set_slot((ULONG_PTR *)&slots->u1.Function, (ULONG_PTR)unlock_file);
            } else if (same_name(name, "UnlockFileEx")) {
                if (!real_unlock_file_ex)
                    real_unlock_file_ex = (unlock_file_ex_fn)slots->u1.Function;
                set_slot((ULONG_PTR *)&slots->u1.Function, (ULONG_PTR)unlock_file_ex);
            }
        }
    }
}

/* The entry point (no C runtime). By process attach the loader has bound every import of the
 * main program, so its address table holds the real functions to wrap. */
BOOL WINAPI DllMain(HINSTANCE instance, DWORD reason, LPVOID reserved)
{
    (void)instance;
    (void)reserved;
    if (reason == DLL_PROCESS_ATTACH)
        patch_main_module();
    return TRUE;
}
