//! `arena`: computer opponents play each other; see `tilepost_bots::arena`.

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match tilepost_bots::arena::main_with(&args) {
        Ok(report) => print!("{report}"),
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(2);
        }
    }
}
