import type { HttpClient } from '../core/http.js';
import { Page, PagePromise } from '../core/pagination.js';
import type { EditMaterial, EditMaterialCategory, EditMaterialListParams, List, RequestOptions, Style } from '../types.js';

/** `GET /v1/styles`: every decoration style in one answer. */
export class Styles {
  constructor(private readonly http: HttpClient) {}

  async list(options?: RequestOptions): Promise<List<Style>> {
    return (await this.http.request<List<Style>>({ method: 'GET', path: '/styles' }, options)).data;
  }
}

/** `GET /v1/edit-material-categories`: every category in one answer. */
export class EditMaterialCategories {
  constructor(private readonly http: HttpClient) {}

  async list(options?: RequestOptions): Promise<List<EditMaterialCategory>> {
    return (await this.http.request<List<EditMaterialCategory>>({ method: 'GET', path: '/edit-material-categories' }, options)).data;
  }
}

/** `GET /v1/edit-materials`: paginated; `await` for a page or `for await` for every material. */
export class EditMaterials {
  constructor(private readonly http: HttpClient) {}

  list(params: EditMaterialListParams = {}, options?: RequestOptions): PagePromise<EditMaterial> {
    const load = async (after?: string): Promise<Page<EditMaterial>> => {
      const query = { ...params, ...(after !== undefined ? { after } : {}) };
      const response = await this.http.request<List<EditMaterial>>({ method: 'GET', path: '/edit-materials', query }, options);
      return new Page(response.data, load);
    };
    return new PagePromise(() => load(params.after));
  }
}
