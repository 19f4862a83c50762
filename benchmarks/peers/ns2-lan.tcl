# ns-2 (2.35) peer of `lasthop run balakrishnan97/lan` for benchmarks/oneshot_ns2.py:
# the same path and transfer, one process, so that the two are timed alike (issue 31).
#
# FH -10 Mb/s, 0.05 ms- BS -2 Mb/s, 0.001 ms- MH; 50-packet drop-tail queues (4.4BSD's
# IFQ_MAXLEN); an 8 MB transfer of 1400-byte segments with a 32 KB window (23 segments);
# Reno with delayed acks; the wireless hop loses a packet per 64 KB on average (ns-2's
# ErrorModel counting bytes, ranvar uniform: its usual form of "one error per N bytes").
# What ns-2 has no counterpart for is left out: WaveLAN's half duplex and per-frame
# overhead, 4.4BSD's window and timer rules. The point is a like-sized one-shot run, not
# the same numbers; its goodput is printed, as lasthop prints its summary.
set ns [new Simulator]
set fh [$ns node]
set bs [$ns node]
set mh [$ns node]
$ns duplex-link $fh $bs 10Mb 0.05ms DropTail
$ns duplex-link $bs $mh 2Mb 0.001ms DropTail
$ns queue-limit $fh $bs 50
$ns queue-limit $bs $mh 50

set em [new ErrorModel]
$em unit byte
$em set rate_ [expr {1.0 / 65536}]
$em ranvar [new RandomVariable/Uniform]
$em drop-target [new Agent/Null]
$ns lossmodel $em $bs $mh

set tcp [new Agent/TCP/Reno]
$tcp set packetSize_ 1400
$tcp set window_ 23
$tcp set maxpkts_ [expr {8388608 / 1400 + 1}]
set sink [new Agent/TCPSink/DelAck]
$ns attach-agent $fh $tcp
$ns attach-agent $mh $sink
$ns connect $tcp $sink
set ftp [new Application/FTP]
$ftp attach-agent $tcp

proc done {} {
    global ns tcp
    if {[$tcp set ack_] + 1 >= [$tcp set maxpkts_]} {
        set t [$ns now]
        puts [format {{"sim_time_s": %.6f, "goodput_bps": %.1f}} $t [expr {8388608 * 8 / $t}]]
        exit 0
    }
    $ns at [expr {[$ns now] + 0.01}] "done"
}
$ns at 0.0 "$ftp start"
$ns at 0.01 "done"
$ns at 1000.0 "puts {\"sim_time_s\": null}; exit 1"
$ns run
