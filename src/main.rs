fn main() {
    println!("kraal");
}
