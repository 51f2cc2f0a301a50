//! The per-run secret of the store. The launcher (`fuser-run --launch`) makes one and hands
//! it to its ranks in [`TOKEN_VAR`]; an outside launcher (torchrun, Slurm) must set the same
//! variable for every rank, e.g. `export FUSER_STORE_TOKEN=$(openssl rand -hex 16)`. Every
//! connection presents it before anything else.

/// The environment variable that carries the token.
pub const TOKEN_VAR: &str = "FUSER_STORE_TOKEN";

/// The shortest token accepted (a guessable token protects nothing).
pub const MIN_TOKEN_LEN: usize = 16;

/// A fresh random token: 32 hex digits from the operating system's random source.
pub fn new_token() -> std::io::Result<String> {
    use std::io::Read;
    let mut bytes = [0u8; 16];
    std::fs::File::open("/dev/urandom")?.read_exact(&mut bytes)?;
    Ok(bytes.iter().map(|b| format!("{b:02x}")).collect())
}

/// Why `token` is not acceptable, if it is not.
pub fn check_token(token: &str) -> Result<(), String> {
    if token.len() < MIN_TOKEN_LEN {
        return Err(format!(
            "{TOKEN_VAR} must hold at least {MIN_TOKEN_LEN} characters (e.g. `openssl rand -hex 16`), got {}",
            token.len()
        ));
    }
    if token.len() > super::wire::MAX_KEY {
        return Err(format!("{TOKEN_VAR} is longer than {} bytes", super::wire::MAX_KEY));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_are_random_and_long_enough() {
        let (a, b) = (new_token().unwrap(), new_token().unwrap());
        assert_ne!(a, b);
        assert!(check_token(&a).is_ok());
        assert!(check_token("short").is_err());
    }
}
