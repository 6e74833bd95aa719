//! The fixtures built into the binary, scanned when no input is given, so that a first run
//! anywhere shows a real result: the real records and the records of the unmodified server
//! kept in `fixtures/csa/` (one per way a game can end), and a small multi-year set of
//! server-style records from the study's corpus generator, packed as one solid 7z block
//! like a yearly download.
use super::Input;

/// The synthetic fixture set, packed as in `fixtures/synthetic/synthetic.7z`.
pub const SYNTHETIC_7Z: &[u8] = include_bytes!("../../fixtures/synthetic/synthetic.7z");

/// The records of `fixtures/csa/` as (entry name, bytes), in sorted name order.
pub const CSA_RECORDS: &[(&str, &[u8])] = &[
    (
        "real/dr1test1test0+tu-1_aobazero_viper-300-5F+aobazero+viper+20200719201040.csa",
        include_bytes!(
            "../../fixtures/csa/real/dr1test1test0+tu-1_aobazero_viper-300-5F+aobazero+viper+20200719201040.csa"
        ),
    ),
    (
        "real/wdoor+floodgate-600-10+01WishBlue_07+Apery_i5-4670+20150415003002.csa",
        include_bytes!(
            "../../fixtures/csa/real/wdoor+floodgate-600-10+01WishBlue_07+Apery_i5-4670+20150415003002.csa"
        ),
    ),
    (
        "real/wdoor+floodgate-600-10F+Titanda_L+HarrySan+20160614033003.csa",
        include_bytes!(
            "../../fixtures/csa/real/wdoor+floodgate-600-10F+Titanda_L+HarrySan+20160614033003.csa"
        ),
    ),
    (
        "real/wdoor+floodgate-900-0+garyu+coredump+20080316040009.csa",
        include_bytes!(
            "../../fixtures/csa/real/wdoor+floodgate-900-0+garyu+coredump+20080316040009.csa"
        ),
    ),
    (
        "real/wdoor+floodgate-900-0+gps_normal+gps_l+20100507120007.csa",
        include_bytes!(
            "../../fixtures/csa/real/wdoor+floodgate-900-0+gps_normal+gps_l+20100507120007.csa"
        ),
    ),
    (
        "real/wdoor+floodgate-900-0+usapyon+MyMove900+20090410100006.csa",
        include_bytes!(
            "../../fixtures/csa/real/wdoor+floodgate-900-0+usapyon+MyMove900+20090410100006.csa"
        ),
    ),
    (
        "real/wdoor+floodgate-900-0+usapyon-on-note+KShogi900+20080217020012.csa",
        include_bytes!(
            "../../fixtures/csa/real/wdoor+floodgate-900-0+usapyon-on-note+KShogi900+20080217020012.csa"
        ),
    ),
    (
        "real/wdoor+floodgate-900-0+usapyon-on-note+gps_normal+20080215133008.csa",
        include_bytes!(
            "../../fixtures/csa/real/wdoor+floodgate-900-0+usapyon-on-note+gps_normal+20080215133008.csa"
        ),
    ),
    (
        "real/wdoor+gps-1500-0+test+gps+20070822031740.csa",
        include_bytes!("../../fixtures/csa/real/wdoor+gps-1500-0+test+gps+20070822031740.csa"),
    ),
    (
        "real/wdoor+ll1_22-0-30+gps1_ll3-4+gps1_l+20081110221701.csa",
        include_bytes!(
            "../../fixtures/csa/real/wdoor+ll1_22-0-30+gps1_ll3-4+gps1_l+20081110221701.csa"
        ),
    ),
    (
        "real/wdoor+pgsklp_32-0-30+gps9_p+gps8_pgsklp+20060428070035.csa",
        include_bytes!(
            "../../fixtures/csa/real/wdoor+pgsklp_32-0-30+gps9_p+gps8_pgsklp+20060428070035.csa"
        ),
    ),
    (
        "server/abnormal--wdoor+test-600-10+alice+bob+20261130020514.csa",
        include_bytes!(
            "../../fixtures/csa/server/abnormal--wdoor+test-600-10+alice+bob+20261130020514.csa"
        ),
    ),
    (
        "server/abnormal_off_turn--wdoor+test-600-10+alice+bob+20261130020515.csa",
        include_bytes!(
            "../../fixtures/csa/server/abnormal_off_turn--wdoor+test-600-10+alice+bob+20261130020515.csa"
        ),
    ),
    (
        "server/chudan--wdoor+test-600-10+alice+bob+20261130020507.csa",
        include_bytes!(
            "../../fixtures/csa/server/chudan--wdoor+test-600-10+alice+bob+20261130020507.csa"
        ),
    ),
    (
        "server/floodgate_abnormal_simultaneous_ids--wdoor+floodgate-300-10F+fgB0+fgA0+20261130021001.csa",
        include_bytes!(
            "../../fixtures/csa/server/floodgate_abnormal_simultaneous_ids--wdoor+floodgate-300-10F+fgB0+fgA0+20261130021001.csa"
        ),
    ),
    (
        "server/floodgate_race_move_before_position--wdoor+floodgate-300-10F+alice+bob+20261130020600.csa",
        include_bytes!(
            "../../fixtures/csa/server/floodgate_race_move_before_position--wdoor+floodgate-300-10F+alice+bob+20261130020600.csa"
        ),
    ),
    (
        "server/illegal_kachi--wdoor+test-600-10+alice+bob+20261130020508.csa",
        include_bytes!(
            "../../fixtures/csa/server/illegal_kachi--wdoor+test-600-10+alice+bob+20261130020508.csa"
        ),
    ),
    (
        "server/illegal_move--wdoor+test-600-10+alice+bob+20261130020505.csa",
        include_bytes!(
            "../../fixtures/csa/server/illegal_move--wdoor+test-600-10+alice+bob+20261130020505.csa"
        ),
    ),
    (
        "server/kachi--wdoor+test-3600-0+alice+bob+20261130020538.csa",
        include_bytes!(
            "../../fixtures/csa/server/kachi--wdoor+test-3600-0+alice+bob+20261130020538.csa"
        ),
    ),
    (
        "server/max_moves--wdoor+test-600-10+alice+bob+20261130020537.csa",
        include_bytes!(
            "../../fixtures/csa/server/max_moves--wdoor+test-600-10+alice+bob+20261130020537.csa"
        ),
    ),
    (
        "server/old20170902_space_comment_and_illegal_kachi--wdoor+test-600-10+alice+bob+20261130020832.csa",
        include_bytes!(
            "../../fixtures/csa/server/old20170902_space_comment_and_illegal_kachi--wdoor+test-600-10+alice+bob+20261130020832.csa"
        ),
    ),
    (
        "server/oute_kaihimore--wdoor+test-600-10+alice+bob+20261130020506.csa",
        include_bytes!(
            "../../fixtures/csa/server/oute_kaihimore--wdoor+test-600-10+alice+bob+20261130020506.csa"
        ),
    ),
    (
        "server/oute_sennichite1--wdoor+test-3600-0+alice+bob+20261130020520.csa",
        include_bytes!(
            "../../fixtures/csa/server/oute_sennichite1--wdoor+test-3600-0+alice+bob+20261130020520.csa"
        ),
    ),
    (
        "server/oute_sennichite2--wdoor+test-3600-0+alice+bob+20261130020525.csa",
        include_bytes!(
            "../../fixtures/csa/server/oute_sennichite2--wdoor+test-3600-0+alice+bob+20261130020525.csa"
        ),
    ),
    (
        "server/oute_sennichite3--wdoor+test-3600-0+alice+bob+20261130020531.csa",
        include_bytes!(
            "../../fixtures/csa/server/oute_sennichite3--wdoor+test-3600-0+alice+bob+20261130020531.csa"
        ),
    ),
    (
        "server/reject--wdoor+test-600-10+alice+bob+20261130020819.csa",
        include_bytes!(
            "../../fixtures/csa/server/reject--wdoor+test-600-10+alice+bob+20261130020819.csa"
        ),
    ),
    (
        "server/sennichite--wdoor+test-600-10+alice+bob+20261130020504.csa",
        include_bytes!(
            "../../fixtures/csa/server/sennichite--wdoor+test-600-10+alice+bob+20261130020504.csa"
        ),
    ),
    (
        "server/time_up--wdoor+test-2-0+alice+bob+20261130020509.csa",
        include_bytes!(
            "../../fixtures/csa/server/time_up--wdoor+test-2-0+alice+bob+20261130020509.csa"
        ),
    ),
    (
        "server/toryo--wdoor+test-300-10F+alice+bob+20261130020502.csa",
        include_bytes!(
            "../../fixtures/csa/server/toryo--wdoor+test-300-10F+alice+bob+20261130020502.csa"
        ),
    ),
    (
        "server/uchifuzume--wdoor+test-3600-0+alice+bob+20261130020517.csa",
        include_bytes!(
            "../../fixtures/csa/server/uchifuzume--wdoor+test-3600-0+alice+bob+20261130020517.csa"
        ),
    ),
];

/// The inputs scanned when none is given.
pub fn bundled_inputs() -> Vec<Input> {
    vec![
        Input::EmbeddedRecords {
            name: "fixtures/csa",
            files: CSA_RECORDS,
        },
        Input::Embedded {
            name: "fixtures/synthetic/synthetic.7z",
            bytes: SYNTHETIC_7Z,
        },
    ]
}
