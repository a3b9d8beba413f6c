# Nix flake of procs: nix run github:procsdev/procs -- up
# or nix profile install github:procsdev/procs.
{
  description = "procs: a local process composer, each process gated on its dependencies' readiness";

  inputs.nixpkgs.url = "github:NixOS/nixpkgs/nixos-unstable";

  outputs = { self, nixpkgs }:
    let
      systems = [ "x86_64-linux" "aarch64-linux" "x86_64-darwin" "aarch64-darwin" ];
      forAllSystems = f: nixpkgs.lib.genAttrs systems (system: f nixpkgs.legacyPackages.${system});
      # A flake has no release tag: the version names the commit.
      version = "0.0.0-${self.shortRev or self.dirtyShortRev or "dirty"}";
      commit = self.rev or self.dirtyRev or "dirty";
    in
    {
      packages = forAllSystems (pkgs: rec {
        # go.mod asks for Go 1.26: nixpkgs' buildGoModule must use a Go at
        # least that new (else use pkgs.buildGo126Module here).
        procs = pkgs.buildGoModule {
          pname = "procs";
          inherit version;
          src = self;
          subPackages = [ "cmd/procs" ];

          # The hash of the Go modules procs depends on (the `go mod vendor`
          # folder, as a NAR hash). It changes whenever go.sum does. Nix could
          # not be run where this was written: it was computed from that
          # folder with Nix's own hashing,
          #   go mod vendor -o /tmp/procs-vendor
          #   nix --extra-experimental-features nix-command hash path /tmp/procs-vendor
          # To update it: run either that, or `nix build` and copy the hash
          # Nix reports after "got:" when this one is stale.
          vendorHash = "sha256-i2tgYuWXsKi0qIHIx81tiHLc34Cd48dbSQS9iVSeDek=";

          env.CGO_ENABLED = "0";
          # The same flags as the release archives (.goreleaser.yaml):
          # procs --version prints the version and commit.
          ldflags = [ "-s" "-w" "-X main.buildVersion=${version}" "-X main.buildCommit=${commit}" ];

          # The tests start real servers (postgres, nginx, chromium…) that
          # the build sandbox lacks; CI runs them (.ci/run).
          doCheck = false;

          meta = {
            description = "Local process composer: start processes in order, each gated on readiness";
            homepage = "https://github.com/procsdev/procs";
            mainProgram = "procs";
          };
        };
        default = procs;
      });
    };
}
