//! The system calls a box may not make: a seccomp filter, in classic BPF,
//! that bubblewrap installs in the box before the run starts (`--seccomp`),
//! so every process of the box has it and none can lift it.
//!
//! It refuses, with `EPERM`, what a judge of text files never needs and a
//! hostile run would use against its box or its grader: tracing and reading
//! other processes (`ptrace`, `process_vm_readv`/`writev`, `kcmp`,
//! `pidfd_getfd`), mounting and unmounting (`mount`, `umount2`,
//! `pivot_root`, the new mount API), namespaces (`unshare`, `setns`, and
//! `clone` with a namespace flag), kernel keyrings, `bpf`,
//! `perf_event_open`, `userfaultfd`, `io_uring`, System V and POSIX
//! message-queue IPC (state that would outlive a case in a fork server's
//! box: shared memory of POSIX's lives in the box's `/dev/shm`, emptied
//! after each case), and the administrator's calls (modules, reboot, swap,
//! accounting, quotas, the kernel log), `fallocate` (which the file-size
//! limit does not bound: with `FALLOC_FL_KEEP_SIZE` a run's output file
//! took 2 GB of the grader's disk at a size of 0), and `socket` of the
//! unix family (a socket bound at a path is reached through any mount of
//! it, whatever the network namespace: one in a candidate's own folder,
//! which its box is given read-only, let a process of its owner outside
//! the box answer for it; `socketpair` stays). `clone3` answers `ENOSYS`, so that
//! the C library falls back to `clone`, whose flags the filter can read.
//! A call made through another architecture's numbers (x32) is refused; a
//! process of another architecture is killed.
//!
//! The filter is written for x86-64 only: elsewhere there is none
//! ([`filter`] is `None`), and the isolation line of every report says so.

/// Denied system calls of x86-64, by number.
#[cfg(target_arch = "x86_64")]
const DENIED: &[u32] = &[
    101, // ptrace
    310, // process_vm_readv
    311, // process_vm_writev
    312, // kcmp
    438, // pidfd_getfd
    165, // mount
    166, // umount2
    155, // pivot_root
    161, // chroot
    428, // open_tree
    429, // move_mount
    430, // fsopen
    431, // fsconfig
    432, // fsmount
    433, // fspick
    442, // mount_setattr
    272, // unshare
    308, // setns
    248, // add_key
    249, // request_key
    250, // keyctl
    321, // bpf
    298, // perf_event_open
    323, // userfaultfd
    425, // io_uring_setup
    426, // io_uring_enter
    427, // io_uring_register
    29,  // shmget
    64,  // semget
    68,  // msgget
    240, // mq_open
    303, // name_to_handle_at
    304, // open_by_handle_at
    246, // kexec_load
    320, // kexec_file_load
    175, // init_module
    313, // finit_module
    176, // delete_module
    169, // reboot
    167, // swapon
    168, // swapoff
    163, // acct
    179, // quotactl
    103, // syslog
    285, // fallocate
];

#[cfg(target_arch = "x86_64")]
const ARCH: u32 = 0xC000_003E; // AUDIT_ARCH_X86_64
#[cfg(target_arch = "x86_64")]
const CLONE: u32 = 56;
#[cfg(target_arch = "x86_64")]
const CLONE3: u32 = 435;
#[cfg(target_arch = "x86_64")]
const SOCKET: u32 = 41;
/// `socket`'s first argument for the unix family.
#[cfg(target_arch = "x86_64")]
const AF_UNIX: u32 = 1;
/// System calls numbered from here on are x32's.
#[cfg(target_arch = "x86_64")]
const X32: u32 = 0x4000_0000;

/// `clone` flags that make a namespace: NEWNS, NEWCGROUP, NEWUTS, NEWIPC,
/// NEWUSER, NEWPID, NEWNET (and NEWTIME, 0x80, which `clone` ignores).
pub const NAMESPACE_FLAGS: u32 =
    0x0002_0000 | 0x0200_0000 | 0x0400_0000 | 0x0800_0000 | 0x1000_0000 | 0x2000_0000 | 0x4000_0000;

const EPERM: u32 = 1;
const ENOSYS: u32 = 38;
const RET_ALLOW: u32 = 0x7fff_0000;
const RET_ERRNO: u32 = 0x0005_0000;
const RET_KILL_PROCESS: u32 = 0x8000_0000;

// Classic BPF opcodes.
const LD_W_ABS: u16 = 0x20;
const JEQ_K: u16 = 0x15;
const JGE_K: u16 = 0x35;
const JSET_K: u16 = 0x45;
const RET_K: u16 = 0x06;

// Offsets in `struct seccomp_data`: the call's number, the architecture,
// and the low half of its first argument (little-endian).
const NR: u32 = 0;
const ARCH_AT: u32 = 4;
const ARG0_LOW: u32 = 16;

/// Where a jump goes.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum To {
    Next,
    Deny,
    NoSys,
    Kill,
    Clone,
    Socket,
}

/// One instruction before its jumps are resolved.
#[derive(Clone, Copy, Debug)]
struct Op {
    code: u16,
    k: u32,
    yes: To,
    no: To,
}

fn op(code: u16, k: u32) -> Op {
    Op {
        code,
        k,
        yes: To::Next,
        no: To::Next,
    }
}

fn jump(code: u16, k: u32, yes: To, no: To) -> Op {
    Op { code, k, yes, no }
}

/// The filter, as the bytes of its `struct sock_filter` array in this
/// machine's byte order (what bubblewrap reads from `--seccomp FD`); `None`
/// on an architecture it is not written for.
pub fn filter() -> Option<Vec<u8>> {
    #[cfg(target_arch = "x86_64")]
    {
        Some(assemble(DENIED, ARCH))
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        None
    }
}

/// The program for `arch` denying `denied`: the architecture, then the
/// number against each denied call, `clone`'s flags, then allow.
#[cfg(target_arch = "x86_64")]
fn assemble(denied: &[u32], arch: u32) -> Vec<u8> {
    let mut ops = vec![
        op(LD_W_ABS, ARCH_AT),
        jump(JEQ_K, arch, To::Next, To::Kill),
        op(LD_W_ABS, NR),
        jump(JGE_K, X32, To::Deny, To::Next),
        jump(JEQ_K, CLONE3, To::NoSys, To::Next),
        jump(JEQ_K, CLONE, To::Clone, To::Next),
        jump(JEQ_K, SOCKET, To::Socket, To::Next),
    ];
    ops.extend(denied.iter().map(|&nr| jump(JEQ_K, nr, To::Deny, To::Next)));
    ops.push(op(RET_K, RET_ALLOW));
    let clone = ops.len();
    ops.push(op(LD_W_ABS, ARG0_LOW));
    ops.push(jump(JSET_K, NAMESPACE_FLAGS, To::Deny, To::Next));
    ops.push(op(RET_K, RET_ALLOW));
    let socket = ops.len();
    ops.push(op(LD_W_ABS, ARG0_LOW));
    ops.push(jump(JEQ_K, AF_UNIX, To::Deny, To::Next));
    ops.push(op(RET_K, RET_ALLOW));
    let deny = ops.len();
    ops.push(op(RET_K, RET_ERRNO | EPERM));
    let nosys = ops.len();
    ops.push(op(RET_K, RET_ERRNO | ENOSYS));
    let kill = ops.len();
    ops.push(op(RET_K, RET_KILL_PROCESS));
    let target = |to: To, at: usize| -> u8 {
        let place = match to {
            To::Next => at + 1,
            To::Deny => deny,
            To::NoSys => nosys,
            To::Kill => kill,
            To::Clone => clone,
            To::Socket => socket,
        };
        u8::try_from(place - at - 1).expect("a seccomp jump of at most 255")
    };
    let mut bytes = Vec::with_capacity(ops.len() * 8);
    for (at, o) in ops.iter().enumerate() {
        bytes.extend_from_slice(&o.code.to_ne_bytes());
        bytes.push(target(o.yes, at));
        bytes.push(target(o.no, at));
        bytes.extend_from_slice(&o.k.to_ne_bytes());
    }
    bytes
}

#[cfg(all(test, target_arch = "x86_64"))]
mod tests {
    use super::*;

    /// A reading of the filter as the kernel runs it, from the spec of
    /// classic BPF (the accumulator, absolute loads, conditional jumps
    /// relative to the next instruction): what it returns for a call.
    fn run(program: &[u8], arch: u32, nr: u32, arg0: u64) -> u32 {
        let mut data = [0u8; 64];
        data[0..4].copy_from_slice(&nr.to_ne_bytes());
        data[4..8].copy_from_slice(&arch.to_ne_bytes());
        data[16..24].copy_from_slice(&arg0.to_ne_bytes());
        let mut pc = 0usize;
        let mut acc = 0u32;
        loop {
            let i = &program[pc * 8..pc * 8 + 8];
            let code = u16::from_ne_bytes([i[0], i[1]]);
            let (jt, jf) = (i[2] as usize, i[3] as usize);
            let k = u32::from_ne_bytes([i[4], i[5], i[6], i[7]]);
            let cond = match code {
                0x20 => {
                    let at = k as usize;
                    acc = u32::from_ne_bytes(data[at..at + 4].try_into().unwrap());
                    pc += 1;
                    continue;
                }
                0x06 => return k,
                0x15 => acc == k,
                0x35 => acc >= k,
                0x45 => acc & k != 0,
                other => panic!("opcode {other:#x}"),
            };
            pc += 1 + if cond { jt } else { jf };
        }
    }

    #[test]
    fn the_filter_denies_what_it_lists_and_allows_the_rest() {
        let f = filter().unwrap();
        assert_eq!(f.len() % 8, 0);
        // read, write, openat, execve, exit_group, wait4, kill, fork.
        for nr in [0, 1, 257, 59, 231, 61, 62, 57] {
            assert_eq!(run(&f, ARCH, nr, 0), RET_ALLOW, "{nr}");
        }
        for &nr in DENIED {
            assert_eq!(run(&f, ARCH, nr, 0), RET_ERRNO | EPERM, "{nr}");
        }
        // clone: a thread or a process is allowed, a namespace is not.
        let thread = 0x003d_0f00; // CLONE_VM|FS|FILES|SIGHAND|THREAD|SYSVSEM|SETTLS|...
        assert_eq!(run(&f, ARCH, CLONE, thread), RET_ALLOW);
        assert_eq!(run(&f, ARCH, CLONE, 17), RET_ALLOW); // SIGCHLD: fork
        for flag in [0x2_0000, 0x1000_0000, 0x2000_0000, 0x4000_0000, 0x800_0000] {
            assert_eq!(run(&f, ARCH, CLONE, 17 | flag), RET_ERRNO | EPERM);
        }
        assert_eq!(run(&f, ARCH, CLONE3, 0), RET_ERRNO | ENOSYS);
        // socket: the unix family is denied, others (and socketpair, 53)
        // are not; fallocate is denied.
        assert_eq!(run(&f, ARCH, SOCKET, u64::from(AF_UNIX)), RET_ERRNO | EPERM);
        for family in [0, 2, 10, 16, 17] {
            assert_eq!(run(&f, ARCH, SOCKET, family), RET_ALLOW, "{family}");
        }
        assert_eq!(run(&f, ARCH, 53, u64::from(AF_UNIX)), RET_ALLOW);
        assert_eq!(run(&f, ARCH, 285, 0), RET_ERRNO | EPERM);
        // x32 numbers, just below, at and above where they start.
        assert_eq!(run(&f, ARCH, X32 - 1, 0), RET_ALLOW);
        assert_eq!(run(&f, ARCH, X32, 0), RET_ERRNO | EPERM);
        assert_eq!(run(&f, ARCH, X32 + 1, 0), RET_ERRNO | EPERM);
        // Another architecture (i386) is killed.
        assert_eq!(run(&f, 0x4000_0003, 0, 0), RET_KILL_PROCESS);
    }
}
