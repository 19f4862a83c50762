//! `lasthop live`'s bad input (issue 33): one line naming the option or the
//! scenario's field and the reason, exit code 2, nothing on stdout, and
//! nothing made (checked before any namespace). These need no root.
#![cfg(target_os = "linux")]

use std::process::Command;

fn live(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_lasthop")).arg("live").args(args).output().expect("runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn bad_input_is_one_line_naming_the_field_and_exit_2() {
    let cases: &[(&[&str], &str)] = &[
        (&["nosuch"], "SCENARIO: 'nosuch' is neither a readable file nor an embedded scenario"),
        (&["live/one-link", "--cc", "vegas"], "--cc: the kernel has no 'vegas'"),
        (&["live/one-link", "--duration", "-1"], "--duration: must be in (0, 86400]"),
        (&["live/one-link", "--on", "zz"], "--on: no host 'zz' (hosts: a, b)"),
        (&["yun09/cell"], "media: live mode carries point-to-point links only"),
        (&["elaarag02/handoff"], "mobility: not carried by live mode yet"),
        (&["elaarag02/wap"], "flows[0].wap: page-fetch workloads (WAP, HTTP) are not carried"),
        (&["live/one-link", "--format", "xml"], "--format: 'xml' is not table or json"),
        (&["live/one-link", "--pcap", "/nonexistent/dir"], "--pcap: /nonexistent/dir is not a directory"),
        (&["live/one-link", "--"], "--: needs a command after it"),
        (&["live/one-link", "--seed", "x"], "--seed: 'x' is not a non-negative integer"),
        (&["live/one-link", "--bogus"], "--bogus: no such option of lasthop live"),
        (
            &["live/one-link", "--sysctl", "net.core.rmem_max=1"],
            "--sysctl: 'net.core.rmem_max' is not a net.ipv4.tcp_* setting",
        ),
        (&["live/one-link", "--set", "params.nope=1"], "params.nope: no parameter named 'nope'"),
        (&["live/one-link", "--set", "rate_bps=-5"], "links[0].bandwidth_bps"),
        (&["balakrishnan97/lan", "--set", "scheme=m-tcp"], "flows[0].scheme: M-TCP's supervisor host is not carried"),
        (&[], "SCENARIO: missing"),
    ];
    for (args, want) in cases {
        let (code, stdout, stderr) = live(args);
        assert_eq!(code, 2, "{args:?}: exit code ({stderr})");
        assert!(stdout.is_empty(), "{args:?}: nothing on stdout");
        assert_eq!(stderr.lines().count(), 1, "{args:?}: one line: {stderr}");
        assert!(stderr.starts_with("lasthop: error: ") && stderr.contains(want), "{args:?}: {stderr}");
    }
}
