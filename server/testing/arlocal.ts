/**
 * A real arlocal gateway for a test suite, on a free port with its data in `dir` (so a test can
 * stop it and start it again on the same data). Tests mine explicitly with `mine()`.
 */
import { type EmbeddedGateway, startEmbeddedGateway } from '../arweave/embeddedArlocal';
import { arweaveFor, type ArweaveClient } from '../arweave/arweaveClient';

export class TestGateway {
  private gateway: EmbeddedGateway | null = null;
  private port: number | null = null;

  constructor(private readonly dir: string) {}

  async start(): Promise<EmbeddedGateway> {
    this.gateway = await startEmbeddedGateway({ dataDir: this.dir, port: this.port, mineMs: null });
    this.port = Number(new URL(this.gateway.gatewayUrl).port);
    return this.gateway;
  }

  get url(): string {
    return this.ready().gatewayUrl;
  }

  get arweave(): ArweaveClient {
    return arweaveFor(this.url);
  }

  mine(): Promise<void> {
    return this.ready().mine();
  }

  async stop(): Promise<void> {
    await this.gateway?.stop();
    this.gateway = null;
  }

  private ready(): EmbeddedGateway {
    if (!this.gateway) throw new Error('The test gateway is not running');
    return this.gateway;
  }
}
