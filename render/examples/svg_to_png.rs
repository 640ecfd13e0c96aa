//! Rasterises SVG files with the crate's renderer: `svg_to_png IN.svg OUT.png`.

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (Some(input), Some(output)) = (args.first(), args.get(1)) else {
        eprintln!("usage: svg_to_png IN.svg OUT.png");
        std::process::exit(2);
    };
    let svg = match std::fs::read_to_string(input) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("cannot read {input}: {e}");
            std::process::exit(1);
        }
    };
    match tilepost_render::to_png(&svg) {
        Ok(png) => {
            if let Err(e) = std::fs::write(output, png) {
                eprintln!("cannot write {output}: {e}");
                std::process::exit(1);
            }
        }
        Err(e) => {
            eprintln!("cannot rasterise {input}: {e}");
            std::process::exit(1);
        }
    }
}
