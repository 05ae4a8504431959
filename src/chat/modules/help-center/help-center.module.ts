import type { ChatModule } from '../../module.types.js';
import { articlesRoutes } from './articles.routes.js';
import { ArticlesService } from './articles.service.js';
import { categoriesRoutes } from './categories.routes.js';
import { CategoriesService } from './categories.service.js';
import { migration0030HelpCenter } from './help-center.migration.js';
import type { HelpArticlesTable, HelpCategoriesTable, HelpPortalsTable } from './help-center.tables.js';
import { portalsRoutes } from './portals.routes.js';
import { PortalsService } from './portals.service.js';
import { publicArticlesRoutes, readerPagesRoutes } from './readers.routes.js';
import { ReadersService } from './readers.service.js';

declare module '../../container.js' {
  interface ChatServices {
    helpPortals: PortalsService;
    helpCategories: CategoriesService;
    helpArticles: ArticlesService;
    helpReaders: ReadersService;
  }
}

declare module '../../db/schema.js' {
  interface ChatDatabase {
    help_portals: HelpPortalsTable;
    help_categories: HelpCategoriesTable;
    help_articles: HelpArticlesTable;
  }
}

/**
 * The help center: portals, categories and Markdown articles managed at `{A}/portals...` and
 * `/api/v1/portals...` (administrators write, members read), and the readers' side without
 * credentials: HTML pages under `/hc/{slug}` and `GET /public/api/v1/portals/{slug}/articles`.
 * Search uses the database's full-text index (core/db/full-text.ts).
 */
export const helpCenterModule: ChatModule = {
  name: 'help-center',
  migrations: { '0030_help_center': migration0030HelpCenter },
  services: (deps, built) => {
    const helpPortals = new PortalsService(deps, built.users, built.accounts);
    const helpCategories = new CategoriesService(deps, helpPortals);
    return {
      helpPortals,
      helpCategories,
      helpArticles: new ArticlesService(deps, helpPortals, helpCategories, built.agents),
      helpReaders: new ReadersService(deps),
    };
  },
  routes: [portalsRoutes, categoriesRoutes, articlesRoutes, readerPagesRoutes, publicArticlesRoutes],
};
