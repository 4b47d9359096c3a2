//! The system calls a box may not make: a seccomp filter that bubblewrap
//! installs in the box before the run starts (`--add-seccomp-fd`, an option
//! of bubblewrap 0.6 and later: an older one refuses it, and so every run
//! in a box, rather than run one unfiltered), so every process of the box
//! has it and none can lift it.
//!
//! The filter is compiled by `seccompiler` (rust-vmm's, Firecracker's) from
//! the rules below, each call named by the C library's number for it
//! (`libc::SYS_*`), so the same rules hold on every architecture
//! seccompiler writes filters for: x86-64, aarch64 and riscv64. Elsewhere
//! there is none ([`filter`] is `None`), and the isolation line of every
//! report says so. Each of its programs first checks the architecture a
//! call is made in: a process of another (i386 through `int $0x80` on
//! x86-64, 32-bit Arm on aarch64) is killed, since its calls have other
//! numbers.
//!
//! It refuses, with `EPERM`, what a judge of text files never needs and a
//! hostile run would use against its box or its grader: tracing and reading
//! other processes (`ptrace`, `process_vm_readv`/`writev`, `kcmp`,
//! `pidfd_getfd`), mounting and unmounting (`mount`, `umount2`,
//! `pivot_root`, `chroot`, the new mount API), namespaces (`unshare`,
//! `setns`, and `clone` with a namespace flag), kernel keyrings, `bpf`,
//! `perf_event_open`, `userfaultfd`, `io_uring`, native asynchronous I/O
//! (`io_setup` and its calls: its contexts are counted against one table of
//! the whole machine, `fs.aio-max-nr`, which one call can empty), System V and POSIX
//! message-queue IPC (state that would outlive a case in a fork server's
//! box: shared memory of POSIX's lives in the box's `/dev/shm`, emptied
//! after each case), opening files by handle, and the administrator's
//! calls (`kexec`, modules, reboot, swap, accounting, quotas, the kernel
//! log), and `fallocate` (which the file-size limit does not bound: with
//! `FALLOC_FL_KEEP_SIZE` a run's output file took 2 GB of the grader's disk
//! at a size of 0).
//!
//! **Sockets** are an allow-list: a judge reads a file and prints a code,
//! and needs none. `socket` is refused for every family: a network
//! namespace leaves a box a loopback of its own, but it does not close
//! `AF_VSOCK`, which on a virtual machine reaches services of its host, nor
//! a unix socket bound at a path, which is reached through any mount of it
//! whatever the network namespace (one in a candidate's own folder, which
//! its box is given read-only, let a process of its owner outside the box
//! answer for it); netlink and packet sockets talk to the kernel's network
//! code. `socketpair` is allowed for the unix family alone: a pair is
//! connected to nothing but itself, and Python's `multiprocessing`,
//! `asyncio` and `subprocess` may make one.
//!
//! `clone3` answers `ENOSYS`, so that the C library falls back to `clone`,
//! whose flags the filter can read (`clone3`'s are in memory, which seccomp
//! cannot see). A seccompiler filter gives one answer to every call it
//! matches, so that answer is a second program: the kernel runs every
//! filter a process has and keeps the strongest answer, and no call is
//! matched by both.
//!
//! **x32.** On x86-64 a call of the x32 ABI is made with x86-64's
//! architecture and its number with bit 30 set; the rules match numbers
//! exactly, so the filter lets every such call through. A kernel built
//! without x32, as most are, or with it turned off, refuses them itself;
//! [`x32_unfiltered`] says whether this one may run them, and the isolation
//! line says so when it may.

use std::sync::OnceLock;

/// The filter, as programs of classic BPF for bubblewrap to install in
/// order (`--add-seccomp-fd` for each), each the bytes of its
/// `struct sock_filter` array in this machine's byte order; `None` on an
/// architecture seccompiler does not write filters for. Compiled once.
pub fn filter() -> Option<&'static [Vec<u8>]> {
    static PROGRAMS: OnceLock<Option<Vec<Vec<u8>>>> = OnceLock::new();
    PROGRAMS.get_or_init(compiled).as_deref()
}

#[cfg(any(
    target_arch = "x86_64",
    target_arch = "aarch64",
    target_arch = "riscv64"
))]
fn compiled() -> Option<Vec<Vec<u8>>> {
    let arch = seccompiler::TargetArch::try_from(std::env::consts::ARCH).ok()?;
    // The rules are fixed: a failure here fails the tests, on every
    // architecture, before it could reach a box.
    let programs = rules::programs(arch).expect("the system-call filter compiles");
    Some(programs.iter().map(|p| rules::bytes(p)).collect())
}

#[cfg(not(any(
    target_arch = "x86_64",
    target_arch = "aarch64",
    target_arch = "riscv64"
)))]
fn compiled() -> Option<Vec<Vec<u8>>> {
    None
}

#[cfg(any(
    target_arch = "x86_64",
    target_arch = "aarch64",
    target_arch = "riscv64"
))]
mod rules {
    use std::collections::BTreeMap;

    use seccompiler::{
        BackendError, BpfProgram, SeccompAction, SeccompCmpArgLen, SeccompCmpOp, SeccompCondition,
        SeccompFilter, SeccompRule, TargetArch, sock_filter,
    };

    /// Calls refused whatever their arguments.
    pub(super) const REFUSED: &[libc::c_long] = &[
        // Other processes: tracing them, reading and writing their memory,
        // comparing and taking their descriptors.
        libc::SYS_ptrace,
        libc::SYS_process_vm_readv,
        libc::SYS_process_vm_writev,
        libc::SYS_kcmp,
        libc::SYS_pidfd_getfd,
        // Mounts, the old calls and the new API.
        libc::SYS_mount,
        libc::SYS_umount2,
        libc::SYS_pivot_root,
        libc::SYS_chroot,
        libc::SYS_open_tree,
        libc::SYS_move_mount,
        libc::SYS_fsopen,
        libc::SYS_fsconfig,
        libc::SYS_fsmount,
        libc::SYS_fspick,
        libc::SYS_mount_setattr,
        // Namespaces (`clone`'s flags are a rule of their own).
        libc::SYS_unshare,
        libc::SYS_setns,
        // Keyrings, and the kernel's own machinery.
        libc::SYS_add_key,
        libc::SYS_request_key,
        libc::SYS_keyctl,
        libc::SYS_bpf,
        libc::SYS_perf_event_open,
        libc::SYS_userfaultfd,
        libc::SYS_io_uring_setup,
        libc::SYS_io_uring_enter,
        libc::SYS_io_uring_register,
        // Linux's native asynchronous I/O: its contexts come from one
        // table of the whole machine's (`fs.aio-max-nr`), which one
        // `io_setup` can empty, and every process outside then gets
        // `EAGAIN`.
        libc::SYS_io_setup,
        libc::SYS_io_destroy,
        libc::SYS_io_submit,
        libc::SYS_io_cancel,
        libc::SYS_io_getevents,
        // IPC that outlives a case: System V's and POSIX message queues.
        libc::SYS_shmget,
        libc::SYS_semget,
        libc::SYS_msgget,
        libc::SYS_mq_open,
        // Files opened by handle, past the paths a box sees.
        libc::SYS_name_to_handle_at,
        libc::SYS_open_by_handle_at,
        // The administrator's calls. The C library of riscv64 (and musl's
        // of aarch64) names no `kexec_file_load`: there it is left to the
        // kernel, which wants a capability the box has not
        // (`CAP_SYS_BOOT`), as it does for `kexec_load`.
        libc::SYS_kexec_load,
        #[cfg(any(
            target_arch = "x86_64",
            all(target_arch = "aarch64", target_env = "gnu")
        ))]
        libc::SYS_kexec_file_load,
        libc::SYS_init_module,
        libc::SYS_finit_module,
        libc::SYS_delete_module,
        libc::SYS_reboot,
        libc::SYS_swapon,
        libc::SYS_swapoff,
        libc::SYS_acct,
        libc::SYS_quotactl,
        libc::SYS_syslog,
        // Disk the file-size limit does not bound.
        libc::SYS_fallocate,
        // Every socket: see the module's doc.
        libc::SYS_socket,
    ];

    /// `clone` flags that make a namespace (`CLONE_NEWTIME` is one of
    /// `clone`'s signal bits, which it does not read as a namespace).
    pub(super) const NAMESPACES: [libc::c_int; 7] = [
        libc::CLONE_NEWNS,
        libc::CLONE_NEWCGROUP,
        libc::CLONE_NEWUTS,
        libc::CLONE_NEWIPC,
        libc::CLONE_NEWUSER,
        libc::CLONE_NEWPID,
        libc::CLONE_NEWNET,
    ];

    /// A condition on the low 32 bits of a call's first argument: the
    /// kernel reads `clone`'s flags and `socketpair`'s family there.
    fn first(op: SeccompCmpOp, value: libc::c_int) -> Result<SeccompCondition, BackendError> {
        SeccompCondition::new(0, SeccompCmpArgLen::Dword, op, u64::from(value as u32))
    }

    /// The filter's programs for `arch`: the refusals (`EPERM`), then
    /// `clone3`'s `ENOSYS`.
    pub(super) fn programs(arch: TargetArch) -> Result<[BpfProgram; 2], BackendError> {
        let mut refused: BTreeMap<i64, Vec<SeccompRule>> =
            REFUSED.iter().map(|&call| (call, Vec::new())).collect();
        // `clone` with any one namespace flag: a rule per flag, any of
        // which matches.
        let namespaces = NAMESPACES
            .iter()
            .map(|&flag| SeccompRule::new(vec![first(SeccompCmpOp::MaskedEq(flag as u64), flag)?]))
            .collect::<Result<_, _>>()?;
        refused.insert(libc::SYS_clone, namespaces);
        let not_unix = SeccompRule::new(vec![first(SeccompCmpOp::Ne, libc::AF_UNIX)?])?;
        refused.insert(libc::SYS_socketpair, vec![not_unix]);
        let refusals = SeccompFilter::new(
            refused,
            SeccompAction::Allow,
            SeccompAction::Errno(libc::EPERM as u32),
            arch,
        )?;
        let no_clone3 = SeccompFilter::new(
            BTreeMap::from([(libc::SYS_clone3, Vec::new())]),
            SeccompAction::Allow,
            SeccompAction::Errno(libc::ENOSYS as u32),
            arch,
        )?;
        Ok([refusals.try_into()?, no_clone3.try_into()?])
    }

    /// A program as the bytes bubblewrap reads: each instruction's `code`,
    /// `jt`, `jf` and `k`, in this machine's byte order, 8 bytes.
    pub(super) fn bytes(program: &[sock_filter]) -> Vec<u8> {
        let mut bytes = Vec::with_capacity(program.len() * 8);
        for instruction in program {
            bytes.extend_from_slice(&instruction.code.to_ne_bytes());
            bytes.push(instruction.jt);
            bytes.push(instruction.jf);
            bytes.extend_from_slice(&instruction.k.to_ne_bytes());
        }
        bytes
    }
}

/// Whether this machine's kernel may run system calls of the x32 ABI,
/// which the filter lets through (see the module's doc). False where there
/// is no x32 (on every architecture but x86-64), and where the kernel
/// says it has none or has it turned off; true where it may, and where it
/// does not say. Found once.
pub fn x32_unfiltered() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        static FOUND: OnceLock<bool> = OnceLock::new();
        *FOUND.get_or_init(|| {
            let read = |path: &str| std::fs::read_to_string(path).ok();
            x32::runs(
                read("/sys/module/syscall/parameters/x32").as_deref(),
                x32::kernel_config().as_deref(),
                &read("/proc/cmdline").unwrap_or_default(),
            )
        })
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

#[cfg(target_arch = "x86_64")]
mod x32 {
    use std::fs;
    use std::io::Read;

    /// The running kernel's configuration: `/boot/config-RELEASE`, else
    /// `/proc/config.gz`; `None` when neither can be read.
    pub(super) fn kernel_config() -> Option<String> {
        if let Ok(release) = fs::read_to_string("/proc/sys/kernel/osrelease")
            && let Ok(text) = fs::read_to_string(format!("/boot/config-{}", release.trim()))
        {
            return Some(text);
        }
        let file = fs::File::open("/proc/config.gz").ok()?;
        let mut text = String::new();
        flate2::read::GzDecoder::new(file)
            .take(64 << 20)
            .read_to_string(&mut text)
            .ok()?;
        Some(text)
    }

    /// Whether a kernel runs x32 calls, from what it says of itself: the
    /// switch a Debian kernel shows (`syscall.x32`'s value, `Y` or `N`), its
    /// configuration, and its command line. Without the switch, a kernel
    /// built without `CONFIG_X86_X32_ABI` runs none; one built with it runs
    /// them unless it has Debian's switch (`CONFIG_X86_X32_DISABLED`, set or
    /// not) and that is off: `syscall.x32=` on the command line, else the
    /// configuration's default. A kernel whose configuration cannot be read
    /// may run them.
    pub(super) fn runs(switch: Option<&str>, config: Option<&str>, cmdline: &str) -> bool {
        if let Some(switch) = switch {
            return yes(switch.trim()).unwrap_or(true);
        }
        let Some(config) = config else {
            return true;
        };
        let set = |name: &str| config.lines().any(|l| l.strip_prefix(name) == Some("=y"));
        if !set("CONFIG_X86_X32_ABI") {
            return false;
        }
        let switched = config.lines().any(|l| {
            l.strip_prefix("CONFIG_X86_X32_DISABLED=").is_some()
                || l == "# CONFIG_X86_X32_DISABLED is not set"
        });
        if !switched {
            return true;
        }
        // The kernel's own words end at `--`: the rest is init's.
        let asked = cmdline
            .split_whitespace()
            .take_while(|&w| w != "--")
            .filter_map(|w| w.strip_prefix("syscall.x32="))
            .last()
            .and_then(yes);
        asked.unwrap_or(!set("CONFIG_X86_X32_DISABLED"))
    }

    /// A yes or a no as the kernel reads one (`kstrtobool`): `y`, `1` or
    /// `on`; `n`, `0` or `off`.
    fn yes(word: &str) -> Option<bool> {
        let mut chars = word.chars().map(|c| c.to_ascii_lowercase());
        match (chars.next()?, chars.next()) {
            ('y' | '1', _) => Some(true),
            ('n' | '0', _) => Some(false),
            ('o', Some('n')) => Some(true),
            ('o', Some('f')) => Some(false),
            _ => None,
        }
    }

    #[cfg(test)]
    mod tests {
        use super::runs;

        const ON: &str = "CONFIG_X86_64=y\nCONFIG_X86_X32_ABI=y\n";
        const OFF: &str = "CONFIG_X86_64=y\n# CONFIG_X86_X32_ABI is not set\n";
        const DEBIAN: &str =
            "CONFIG_X86_X32_ABI=y\nCONFIG_X86_X32_DISABLED=y\nCONFIG_X86_X32_ABI_EXTRA=y\n";
        const DEBIAN_ON: &str = "CONFIG_X86_X32_ABI=y\n# CONFIG_X86_X32_DISABLED is not set\n";

        #[test]
        fn x32_runs_as_the_kernel_says() {
            // Debian's switch, when shown, decides.
            assert!(!runs(Some("N\n"), Some(ON), ""));
            assert!(runs(Some("Y\n"), Some(OFF), ""));
            // Built without x32: none, whatever the command line asks.
            assert!(!runs(None, Some(OFF), "syscall.x32=y"));
            assert!(!runs(None, Some(""), ""));
            // Built with it and no switch: the command line cannot turn it off.
            assert!(runs(None, Some(ON), "syscall.x32=n"));
            // Debian's switch: the command line, else the default.
            assert!(!runs(None, Some(DEBIAN), "quiet"));
            assert!(runs(None, Some(DEBIAN), "quiet syscall.x32=y"));
            assert!(runs(None, Some(DEBIAN), "syscall.x32=on"));
            assert!(!runs(None, Some(DEBIAN), "syscall.x32=y syscall.x32=0"));
            assert!(runs(None, Some(DEBIAN_ON), "ro"));
            assert!(!runs(None, Some(DEBIAN_ON), "ro syscall.x32=off"));
            // Words after `--` are init's, not the kernel's.
            assert!(!runs(None, Some(DEBIAN), "ro -- syscall.x32=y"));
            // Nothing known: it may.
            assert!(runs(None, None, ""));
        }
    }
}

#[cfg(all(
    test,
    any(
        target_arch = "x86_64",
        target_arch = "aarch64",
        target_arch = "riscv64"
    )
))]
mod tests {
    use super::rules::{NAMESPACES, REFUSED, bytes, programs};
    use super::*;
    use seccompiler::{TargetArch, sock_filter};

    /// The rules compile to two programs for each architecture seccompiler
    /// writes for, each within the kernel's limit of 4096 instructions.
    #[test]
    fn the_filter_compiles_for_every_architecture_it_supports() {
        for arch in [TargetArch::x86_64, TargetArch::aarch64, TargetArch::riscv64] {
            let [refusals, no_clone3] = programs(arch).unwrap();
            // The architecture's check, a load and a test per call, and
            // its answers: at least one instruction per refused call.
            assert!(
                refusals.len() > REFUSED.len() + NAMESPACES.len(),
                "{arch:?}"
            );
            assert!(refusals.len() < 4096, "{arch:?}");
            assert!(no_clone3.len() < refusals.len(), "{arch:?}");
        }
    }

    /// The filter of this machine is its two programs, in bubblewrap's
    /// bytes, 8 per instruction, each within a page: the supervisor writes
    /// each into a pipe before bubblewrap reads it, and a pipe holds a page
    /// at least.
    #[test]
    fn the_filter_is_two_programs_of_whole_instructions() {
        let programs = filter().expect("a filter on this architecture");
        assert_eq!(programs.len(), 2);
        let arch = TargetArch::try_from(std::env::consts::ARCH).unwrap();
        for (built, compiled) in programs.iter().zip(super::rules::programs(arch).unwrap()) {
            assert_eq!(built.len(), compiled.len() * 8);
            assert!(built.len() <= 4096, "{} bytes", built.len());
        }
        assert!(std::ptr::eq(filter().unwrap(), programs), "built once");
    }

    /// An instruction is its code, its two jumps and its constant, in this
    /// machine's byte order.
    #[test]
    fn an_instruction_is_eight_bytes_in_native_order() {
        let one = sock_filter {
            code: 0x0015,
            jt: 3,
            jf: 250,
            k: 0xC000_003E,
        };
        let mut want = 0x0015u16.to_ne_bytes().to_vec();
        want.extend([3, 250]);
        want.extend(0xC000_003Eu32.to_ne_bytes());
        assert_eq!(bytes(&[one.clone(), one]), [want.clone(), want].concat());
    }
}
