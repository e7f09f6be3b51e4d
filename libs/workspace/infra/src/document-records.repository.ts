import { Injectable } from '@nestjs/common';
import { TypeOrmUnitOfWork } from '@svc/database';
import { DocumentRecord, DocumentRecordRepository } from '@svc/workspace-core';

interface Row {
  instance_id: string;
  document_id: string;
  owner_user_id: string | null;
  web_url: string | null;
}

@Injectable()
export class TypeOrmDocumentRecordRepository extends DocumentRecordRepository {
  constructor(private readonly uow: TypeOrmUnitOfWork) {
    super();
  }

  async getMany(instanceId: string, documentIds: string[]): Promise<DocumentRecord[]> {
    if (documentIds.length === 0) return [];
    const rows: Row[] = await this.uow.manager().query(`SELECT * FROM workspace.document_records WHERE instance_id = $1 AND document_id = ANY($2)`, [instanceId, documentIds]);
    return rows.map((r) => ({ instanceId: r.instance_id, documentId: r.document_id, ownerUserId: r.owner_user_id, webUrl: r.web_url }));
  }

  async ownedBy(instanceId: string, userId: string): Promise<string[]> {
    const rows: { document_id: string }[] = await this.uow
      .manager()
      .query(`SELECT document_id FROM workspace.document_records WHERE instance_id = $1 AND owner_user_id = $2 ORDER BY updated_at, document_id`, [instanceId, userId]);
    return rows.map((r) => r.document_id);
  }

  async setOwner(instanceId: string, documentId: string, ownerUserId: string | null, at: Date): Promise<void> {
    await this.uow.manager().query(
      `INSERT INTO workspace.document_records (instance_id, document_id, owner_user_id, updated_at) VALUES ($1, $2, $3, $4)
       ON CONFLICT (instance_id, document_id) DO UPDATE SET owner_user_id = EXCLUDED.owner_user_id, updated_at = EXCLUDED.updated_at`,
      [instanceId, documentId, ownerUserId, at],
    );
  }

  /**
   * Records each document's URL as the repository last gave it. null is an answer too (the document
   * has no URL now) and replaces an earlier URL: a removed link must not live on in the cache.
   */
  async cacheWebUrls(instanceId: string, urls: { documentId: string; webUrl: string | null }[], at: Date): Promise<void> {
    for (const { documentId, webUrl } of urls) {
      await this.uow.manager().query(
        `INSERT INTO workspace.document_records (instance_id, document_id, web_url, updated_at) VALUES ($1, $2, $3, $4)
         ON CONFLICT (instance_id, document_id) DO UPDATE SET web_url = EXCLUDED.web_url`,
        [instanceId, documentId, webUrl, at],
      );
    }
  }
}
