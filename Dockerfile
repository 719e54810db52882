# revimport's container image, built from this repository alone (never from a registry name):
#   docker build -t registry.example.com/revimport:0.2.0 .
# Stage 1 builds dist/ and packs the tarball the README's install uses, then installs it globally into
# /opt/revimport: better-sqlite3 is native, and this full image has the tool chain to compile it when no
# prebuilt binary can be fetched. Stage 2 is the slim image of the same Node and Debian (the same ABI and
# glibc) with that install alone, run as the unprivileged user `node`.
ARG NODE_VERSION=22

FROM node:${NODE_VERSION}-bookworm AS build
WORKDIR /src
COPY package.json package-lock.json ./
# --ignore-scripts: the build needs no native module, and prepare would build before the sources are here.
RUN npm ci --ignore-scripts --no-audit --no-fund
COPY . .
RUN npm run build \
 && npm pack --ignore-scripts --pack-destination /pack \
 && npm install -g --prefix /opt/revimport --no-audit --no-fund /pack/revimport-*.tgz \
 && /opt/revimport/bin/revimport --version

FROM node:${NODE_VERSION}-bookworm-slim
COPY --from=build /opt/revimport /opt/revimport
ENV PATH=/opt/revimport/bin:$PATH
USER node
WORKDIR /home/node
# The build fails here if the CLI or the native SQLite module does not load in this image.
RUN revimport --version \
 && node -e "new (require('/opt/revimport/lib/node_modules/revimport/node_modules/better-sqlite3'))(':memory:')"
ENTRYPOINT ["revimport"]
CMD ["--help"]
